import Testing
@testable import PerchCore

private let t0 = serviceTestStart

private func notify(_ hints: [(key: String, value: BusHintValue)]) -> BusNotify {
    BusNotify(appName: "Mail", replacesID: 0, appIcon: "", summary: "s", body: "", actions: [], hints: hints,
              expireTimeout: -1)
}

extension ServiceHarness {
    /// Posts with the sound hints a sender gives; returns the id and the
    /// sounds the post made.
    @discardableResult
    mutating func post(_ title: String, sound: NotificationSound?, suppressed: Bool = false, app: String = "app",
                       urgency: Urgency = .normal, replaces: UInt32? = nil,
                       at now: Instant = serviceTestStart) -> (id: UInt32, sounds: [SoundCue]) {
        var request = NotifyRequest(title: title)
        request.app = app
        request.urgency = urgency
        request.replaces = replaces
        request.sound = sound
        request.suppressSound = suppressed
        let (id, effects) = service.post(request, from: nil, at: now)
        self.effects += effects
        advance(to: now)
        return (id, effects.sounds)
    }
}

extension Array where Element == ServiceEffect {
    var sounds: [SoundCue] { compactMap { if case .sound(let cue) = $0 { cue } else { nil } } }
}

@Suite("Sound hints as senders send them")
struct SoundHintTests {
    @Test("sound-name and sound-file (a path or a local file:// URI) are read; the file wins over the name")
    func readsTheHints() {
        #expect(notify([("sound-name", .string("message-new-instant"))]).sound == .named("message-new-instant"))
        #expect(notify([("sound-file", .string("/usr/share/sounds/a.oga"))]).sound == .file("/usr/share/sounds/a.oga"))
        #expect(notify([("sound-file", .string("file:///tmp/my%20ding.wav"))]).sound == .file("/tmp/my ding.wav"))
        let both = notify([("sound-name", .string("bell")), ("sound-file", .string("/tmp/d.wav"))])
        #expect(both.sound == .file("/tmp/d.wav"))
        #expect(both.diagnostics.isEmpty)
        #expect(notify([("suppress-sound", .boolean(true))]).notifyRequest.suppressSound)
        #expect(notify([("sound-name", .string("bell"))]).notifyRequest.sound == .named("bell"))
    }

    @Test("a name that walks out of a theme, a remote URI or a hint of the wrong type is dropped with one line",
          arguments: [
              ("sound-name", BusHintValue.string("../../etc/passwd"), "sound name"),
              ("sound-name", .string("a/b"), "sound name \"a/b\""),
              ("sound-name", .string(""), "is empty"),
              ("sound-name", .int32(5), "has type i, expected a string"),
              ("sound-file", .string("http://example.com/ding.wav"), "not a file:// URI"),
              ("sound-file", .string("file://otherhost/ding.wav"), "names host otherhost"),
              ("sound-file", .string("ding.wav"), "neither an absolute path nor a file:// URI"),
              ("suppress-sound", .string("yes"), "expected a boolean"),
          ])
    func refusesBadHints(key: String, value: BusHintValue, says: String) {
        let decoded = notify([(key, value)])
        #expect(decoded.sound == nil)
        #expect(!decoded.suppressSound)
        #expect(decoded.diagnostics.count == 1)
        #expect(decoded.diagnostics.first?.contains(says) == true, "\(decoded.diagnostics)")
        #expect(decoded.diagnostics.first?.contains(key) == true)
    }

    @Test("the control socket's notify takes sound: a name, a file, or none for suppress-sound")
    func overTheControlSocket() throws {
        func decode(_ sound: String) throws -> NotifyRequest? {
            let line = #"{"id":1,"method":"notify","params":{"title":"t","sound":"\#(sound)"}}"#
            guard case .notify(let request) = try ControlProtocol.decode(line: Array(line.utf8)).request.get() else {
                return nil
            }
            return request
        }
        #expect(try decode("bell")?.sound == .named("bell"))
        #expect(try decode("/tmp/d.wav")?.sound == .file("/tmp/d.wav"))
        #expect(try decode("none")?.suppressSound == true)
        #expect(throws: ControlError.self) { try decode("a/../b") }
    }
}

@Suite("When a sound is heard")
struct SoundRuleTests {
    @Test("a sender's named sound plays once, with its id, app and the volume; none named, nothing plays")
    func sendersSound() {
        var h = ServiceHarness("sound-volume=40\n")
        let (id, sounds) = h.post("Mail", sound: .named("message-new-email"), app: "Mail")
        #expect(sounds == [SoundCue(id: id, app: "Mail", sound: .named("message-new-email"), volume: 40)])
        #expect(h.post("Quiet", sound: nil, at: t0 + 5).sounds.isEmpty)
    }

    @Test("a rule's sound plays for an app that names none, and replaces one it names; sound=none silences")
    func rules() {
        var h = ServiceHarness("""
            [app-name=Slack]
            sound=message-new-instant
            [app-name=Chatty]
            sound=none
            [urgency=critical]
            sound=/usr/share/sounds/alarm.oga
            """)
        #expect(h.post("hi", sound: nil, app: "Slack").sounds.map(\.sound) == [.named("message-new-instant")])
        #expect(h.post("hi", sound: .named("bell"), app: "Slack", at: t0 + 5).sounds.map(\.sound)
                == [.named("message-new-instant")])
        #expect(h.post("hi", sound: .named("bell"), app: "Chatty", at: t0 + 10).sounds.isEmpty)
        #expect(h.post("fire", sound: nil, urgency: .critical, at: t0 + 15).sounds.map(\.sound)
                == [.file("/usr/share/sounds/alarm.oga")])
    }

    @Test("suppress-sound beats a rule; sounds=off and the silent mode play nothing, and toasts still show")
    func switchedOff() {
        var h = ServiceHarness("sound=bell\n")
        #expect(h.post("a", sound: nil, suppressed: true).sounds.isEmpty)
        var off = ServiceHarness("sounds=off\n")
        #expect(off.post("a", sound: .named("bell")).sounds.isEmpty)
        var silent = ServiceHarness()
        _ = silent.service.setModes(.add(NotificationService.silent), at: t0)
        let (id, sounds) = silent.post("a", sound: .named("bell"))
        #expect(sounds.isEmpty)
        #expect(silent.liveIDs == [id], "silent is about sound only")
        _ = silent.service.setModes(.remove(NotificationService.silent), at: t0 + 5)
        #expect(silent.post("b", sound: .named("bell"), at: t0 + 5).sounds.count == 1)
    }

    @Test("do-not-disturb, invisible and the fullscreen hold are quiet; a critical one is heard through them")
    func quietWithTheScreen() {
        var dnd = ServiceHarness()
        _ = dnd.service.setModes(.add(NotificationService.doNotDisturb), at: t0)
        #expect(dnd.post("a", sound: .named("bell")).sounds.isEmpty)
        #expect(dnd.post("b", sound: .named("bell"), urgency: .critical, at: t0 + 5).sounds.count == 1)

        var invisible = ServiceHarness("[app-name=Spam]\ninvisible=1\n")
        #expect(invisible.post("a", sound: .named("bell"), app: "Spam").sounds.isEmpty)

        var hold = ServiceHarness()
        _ = hold.service.setFullscreen(true, at: t0)
        #expect(hold.post("a", sound: .named("bell")).sounds.isEmpty)
        #expect(hold.post("b", sound: .named("bell"), urgency: .critical, at: t0 + 5).sounds.count == 1)
        var shown = ServiceHarness("fullscreen=show\n")
        _ = shown.service.setFullscreen(true, at: t0)
        #expect(shown.post("a", sound: .named("bell")).sounds.count == 1, "fullscreen=show shows and sounds")

        var center = ServiceHarness()
        _ = center.service.setCenter(.open, at: t0)
        #expect(center.post("a", sound: .named("bell")).sounds.count == 1, "what the open center lists is heard")
    }

    @Test("a replacement in place is heard only when it names another sound")
    func oneSoundPerNotification() {
        var h = ServiceHarness("sound-gap=0\n")
        let (id, first) = h.post("Copying 0 %", sound: .named("bell"))
        #expect(first.count == 1)
        var again = 0
        for step in 1...50 {
            again += h.post("Copying \(step) %", sound: .named("bell"), replaces: id, at: t0 + Double(step)).sounds.count
        }
        #expect(again == 0, "50 progress updates, no new sound")
        #expect(h.post("Copied", sound: .named("complete"), replaces: id, at: t0 + 60).sounds.count == 1)
        _ = h.dismiss(.id(id), at: t0 + 70)
        #expect(h.post("Copying again", sound: .named("bell"), at: t0 + 80).sounds.count == 1,
                "a new notification is heard")
    }

    @Test("a burst is heard once, at its start, however long it lasts; after a gap the next is heard")
    func theGap() {
        // max-burst=0: this is sound-gap's rule, not the burst's (past
        // max-burst an app's notifications collapse, and are not heard).
        var h = ServiceHarness("sound-gap=1000\nmax-burst=0\n")
        var heard = 0
        // 100 notifications 0.5 s apart: 50 s, every one within the gap of the one before.
        for index in 0..<100 {
            heard += h.post("\(index)", sound: .named("bell"), at: t0 + Double(index) * 0.5).sounds.count
        }
        #expect(heard == 1)
        #expect(h.post("later", sound: .named("bell"), at: t0 + 49.5 + 1.5).sounds.count == 1)
    }

    @Test("what comes back — restored from history, or live at the last stop — is not heard again")
    func notOnRestore() {
        var h = ServiceHarness()
        let (id, sounds) = h.post("a", sound: .named("bell"))
        #expect(sounds.count == 1)
        _ = h.dismiss(.id(id), at: t0 + 1)
        let (_, effects) = h.service.restore(for: nil, at: t0 + 10)
        #expect(effects.sounds.isEmpty)
    }
}

@Suite("Sound keys")
struct SoundConfigTests {
    @Test("sound takes sender, none, a name or a path; the rest is an error that names the key")
    func soundValues() {
        #expect(Config.defaults.global.sound == .sender)
        for (text, choice) in [("sender", SoundChoice.sender), ("none", .silence),
                               ("dialog-warning", .play(.named("dialog-warning"))),
                               ("/home/me/ding.wav", .play(.file("/home/me/ding.wav")))] {
            let (config, diagnostics) = ConfigFile.parse(text: "sound=\(text)\n")
            #expect(diagnostics.isEmpty)
            #expect(config?.global.sound == choice)
        }
        for bad in ["../x", "a b", "http://x/y.wav"] {
            let (config, diagnostics) = ConfigFile.parse(text: "sound=\(bad)\n")
            #expect(config == nil)
            #expect(diagnostics.first?.description.contains("sound") == true)
        }
    }

    @Test("sounds, sound-theme and sound-gap are global; sound-volume is a percentage")
    func globalKeys() {
        let (config, _) = ConfigFile.parse(text: "sounds=off\nsound-theme=Yaru\nsound-gap=250\nsound-volume=60\n")
        #expect(config?.global.sounds == false)
        #expect(config?.global.soundTheme == "Yaru")
        #expect(config?.global.soundGap == 0.25)
        #expect(config?.global.soundVolume == 60)
        #expect(ConfigFile.parse(text: "[app-name=x]\nsounds=off\n").0 == nil)
        #expect(ConfigFile.parse(text: "sound-volume=101\n").0 == nil)
        #expect(ConfigFile.parse(text: "sound-theme=a/b\n").0 == nil)
    }
}
