import Testing
@testable import PerchCore

private let t0 = serviceTestStart

private extension ServiceHarness {
    /// On a stack (entering, shown or queued), as opposed to suspended.
    var onStacks: [UInt32] { service.board.stacks.values.flatMap(\.all).map(\.id).sorted() }

    mutating func run(_ effects: [ServiceEffect], at now: Instant) {
        self.effects += effects
        advance(to: now)
    }
}

@Suite("Do-not-disturb for a while")
struct ModeEndTests {
    @Test("a mode added until a time ends then by the wall clock, and what it held comes back")
    func endsOnTime() {
        let wall = TestWallClock()
        var h = ServiceHarness("", timeout: 60, wall: wall)
        let shown = h.post("before", at: t0)
        h.run(h.service.setModes(.add("do-not-disturb"), until: .at(wall.now + 3_600), at: t0), at: t0)
        #expect(h.service.isDoNotDisturb && h.service.board.isSuspended(shown))
        #expect(h.service.nextWallDeadline == wall.now + 3_600)
        // A suspend: the monotonic clock barely moved, the wall clock did.
        wall.now += 3_600
        h.run(h.service.wallTimePassed(at: t0 + 1), at: t0 + 1)
        #expect(!h.service.isDoNotDisturb, "it ended on the wall clock")
        #expect(h.onStacks == [shown])
        #expect(h.service.nextWallDeadline == nil)
    }

    @Test("before its time nothing ends")
    func notBefore() {
        let wall = TestWallClock()
        var h = ServiceHarness("", wall: wall)
        h.run(h.service.setModes(.add("do-not-disturb"), until: .at(wall.now + 60), at: t0), at: t0)
        wall.now += 59
        h.run(h.service.wallTimePassed(at: t0 + 59), at: t0 + 59)
        #expect(h.service.isDoNotDisturb)
    }

    @Test("turning it off, or on again without an end, forgets the end")
    func endForgotten() {
        let wall = TestWallClock()
        var h = ServiceHarness("", wall: wall)
        h.run(h.service.setModes(.add("do-not-disturb"), until: .at(wall.now + 60), at: t0), at: t0)
        h.run(h.service.setModes(.add("do-not-disturb"), at: t0), at: t0)
        #expect(h.service.quiet.modeEnds.isEmpty && h.service.isDoNotDisturb)
        h.run(h.service.setModes(.add("do-not-disturb"), until: .at(wall.now + 60), at: t0), at: t0)
        h.run(h.service.setModes(.remove("do-not-disturb"), at: t0), at: t0)
        #expect(h.service.quiet.modeEnds.isEmpty)
    }

    @Test("an end in the past or past a year is refused and changes nothing")
    func badEnds() {
        let wall = TestWallClock()
        var h = ServiceHarness("", wall: wall)
        for until in [wall.now, wall.now - 10, wall.now + QuietChoices.longestWait + 1].map(QuietEnd.at) {
            let effects = h.service.setModes(.add("do-not-disturb"), until: until, at: t0)
            #expect(effects.contains { if case .warning = $0 { true } else { false } })
            #expect(!h.service.isDoNotDisturb)
        }
    }

    @Test("after a restart, an end that passed meanwhile ends the mode at once; one to come stays")
    func acrossRestart() {
        let wall = TestWallClock()
        var h = ServiceHarness("", wall: wall)
        h.run(h.service.setModes(.add("do-not-disturb"), until: .at(wall.now + 60), at: t0), at: t0)
        h.run(h.service.setModes(.add("work"), until: .at(wall.now + 600), at: t0), at: t0)
        let state = h.service.snapshot(at: t0)
        let choices = h.service.quiet
        wall.now += 120
        var again = ServiceHarness("", wall: wall)
        again.run(again.service.restore(state, at: t0), at: t0)
        again.run(again.service.restoreQuiet(choices, at: t0), at: t0)
        #expect(again.service.modes == ["work"])
        #expect(again.service.nextWallDeadline == wall.now - 120 + 600)
    }
}

@Suite("Snooze")
struct SnoozeTests {
    @Test("a snoozed notification leaves the screen untold and comes back with its whole time")
    func snoozeAndWake() {
        let wall = TestWallClock()
        var h = ServiceHarness("", timeout: 5, wall: wall)
        let id = h.post("meeting", at: t0)
        h.advance(to: t0 + 4)
        _ = h.take()
        let (result, effects) = h.service.snooze(id, until: .at(wall.now + 600), at: t0 + 4)
        #expect((try? result.get()) != nil)
        h.run(effects, at: t0 + 4)
        let taken = h.take()
        #expect(taken.removedToasts == [id])
        #expect(taken.closed.isEmpty && taken.eventNames.isEmpty, "the sender is not told it closed")
        #expect(h.liveIDs == [id] && h.service.isSnoozed(id))
        h.advance(to: t0 + 100)
        #expect(h.liveIDs == [id], "no timer runs while snoozed")
        wall.now += 600
        h.run(h.service.wallTimePassed(at: t0 + 100), at: t0 + 100)
        #expect(h.take().addedToasts == [id])
        #expect(!h.service.isSnoozed(id))
        h.advance(to: t0 + 104.5)
        #expect(h.liveIDs == [id], "it has five seconds again, not the one it had left")
        h.advance(to: t0 + 106)
        #expect(h.liveIDs.isEmpty)
    }

    @Test("a snooze of nothing, of Perch's own toast, or for no time is refused")
    func refused() {
        let wall = TestWallClock()
        var h = ServiceHarness("", wall: wall)
        #expect(h.service.snooze(9, until: .at(wall.now + 60), at: t0).result.failureCode == .notFound)
        let id = h.post("x", at: t0)
        #expect(h.service.snooze(id, until: .at(wall.now), at: t0).result.failureCode == .invalidParams)
    }

    @Test("a snoozed notification that is dismissed takes its snooze with it; it survives a restart")
    func dismissedAndRestored() {
        let wall = TestWallClock()
        var h = ServiceHarness("", wall: wall)
        let a = h.post("a", at: t0)
        let b = h.post("b", at: t0)
        h.run(h.service.snooze(a, until: .at(wall.now + 60), at: t0).effects, at: t0)
        h.run(h.service.snooze(b, until: .at(wall.now + 60), at: t0).effects, at: t0)
        _ = h.dismiss(.id(a), at: t0)
        #expect(h.service.quiet.snoozes.keys.sorted() == [b])
        let state = h.service.snapshot(at: t0)
        var again = ServiceHarness("", wall: wall)
        again.run(again.service.restore(state, at: t0), at: t0)
        again.run(again.service.restoreQuiet(h.service.quiet, at: t0), at: t0)
        #expect(again.service.board.isSuspended(b) && again.service.isSnoozed(b))
    }
}

@Suite("Apps muted or let through")
struct AppChoiceTests {
    @Test("a muted app's notifications go straight to history, unheard; reset, they show")
    func muted() {
        var h = ServiceHarness()
        h.run(h.service.setAppChoice("Chat", .muted, at: t0).effects, at: t0)
        let id = h.post("hi", app: "Chat", at: t0)
        #expect(h.liveIDs.isEmpty && h.historyTitles == ["hi"])
        #expect(h.service.history.entries.first?.notification.id == id)
        h.run(h.service.setAppChoice("Chat", nil, at: t0).effects, at: t0)
        let shown = h.post("again", app: "Chat", at: t0)
        #expect(h.liveIDs == [shown])
    }

    @Test("an app allowed through shows during do-not-disturb; another does not")
    func allowed() {
        var h = ServiceHarness()
        h.run(h.service.setAppChoice("Phone", .allowed, at: t0).effects, at: t0)
        h.run(h.service.setModes(.add("do-not-disturb"), at: t0), at: t0)
        let call = h.post("call", app: "Phone", at: t0)
        _ = h.post("mail", app: "Mail", at: t0)
        #expect(h.liveIDs == [call] && h.historyTitles == ["mail"])
        #expect(h.onStacks == [call])
    }

    @Test("past the bound a new app's choice is refused")
    func bounded() {
        var h = ServiceHarness()
        for index in 0 ..< QuietChoices.maximumApps {
            #expect((try? h.service.setAppChoice("app\(index)", .muted, at: t0).result.get()) != nil)
        }
        #expect(h.service.setAppChoice("one more", .muted, at: t0).result.failureCode == .invalidParams)
        #expect((try? h.service.setAppChoice("app0", .allowed, at: t0).result.get()) != nil, "a change is not a new one")
    }
}

@Suite("Inhibitions and shares")
struct InhibitionAndShareTests {
    @Test("an inhibition holds a normal toast, sends arrivals to history, shows a critical one, and ends with its owner")
    func inhibit() {
        var h = ServiceHarness("missed-summary=0")
        let before = h.post("before", at: t0)
        let (cookie, effects) = h.service.inhibit(app: "org.kde.portal", reason: "sharing", owner: ":1.7", at: t0)
        h.run(effects, at: t0)
        #expect(cookie != 0 && h.service.board.isSuspended(before))
        _ = h.post("during", at: t0)
        let critical = h.post("battery", urgency: .critical, at: t0)
        #expect(h.historyTitles == ["during"])
        #expect(h.onStacks == [critical])
        h.run(h.service.dropInhibitions(ownedBy: ":1.9", at: t0), at: t0)
        #expect(h.service.board.isSuspended(before), "another caller leaving ends nothing")
        h.run(h.service.dropInhibitions(ownedBy: ":1.7", at: t0), at: t0)
        #expect(h.onStacks == [before, critical])
        #expect(h.service.uninhibit(cookie: cookie, at: t0).isEmpty, "ended already")
    }

    @Test("past the limit the oldest inhibition goes")
    func limit() {
        var inhibitions = Inhibitions()
        let first = inhibitions.add(app: "a", reason: "", owner: ":1.1")
        for _ in 1 ..< Inhibitions.limit { _ = inhibitions.add(app: "a", reason: "", owner: ":1.1") }
        #expect(inhibitions.count == Inhibitions.limit)
        _ = inhibitions.add(app: "b", reason: String(repeating: "x", count: 10_000), owner: ":1.2")
        #expect(inhibitions.count == Inhibitions.limit && !inhibitions.remove(first))
        #expect(inhibitions.all.last?.inhibition.reason.utf8.count == Inhibitions.textLimit)
    }

    @Test("hide-content shows every toast as its app and New notification, and gives the content back after")
    func hideContent() {
        var h = ServiceHarness("while-sharing=hide-content")
        let id = h.post("Your code is 4417", app: "Bank", at: t0)
        _ = h.take()
        h.run(h.service.setSharing(true, at: t0), at: t0)
        let hidden = h.take().compactMap { if case .updateToast(let p) = $0 { p } else { nil } }
        #expect(hidden.map(\.id) == [id])
        #expect(hidden.first?.content.title == "Bank" && hidden.first?.content.body == "New notification")
        h.run(h.service.setSharing(false, at: t0), at: t0)
        let shown = h.take().compactMap { if case .updateToast(let p) = $0 { p } else { nil } }
        #expect(shown.first?.content.title == "Your code is 4417")
    }
}

@Suite("What was missed")
struct MissedSummaryTests {
    @Test("a hold that kept back three or more ends with one summary toast naming the count and the apps")
    func summary() {
        var h = ServiceHarness()
        h.run(h.service.setSharing(true, at: t0), at: t0)
        for (index, app) in ["Chat", "Mail", "Chat", "News"].enumerated() { h.post("n\(index)", app: app, at: t0) }
        let live = h.liveIDs
        _ = h.take()
        h.run(h.service.setSharing(false, at: t0 + 5), at: t0 + 5)
        let summary = h.liveIDs.filter { !live.contains($0) }
        #expect(summary.count == 1)
        let toast = h.service.board.toast(id: summary[0])!.notification
        #expect(toast.title == "While sharing the screen" && toast.body == "4 notifications from 3 apps")
        #expect(!h.take().contains { if case .sound = $0 { true } else { false } }, "no sound for it")
        // It is no app's: `perchctl apps` counts only the senders' toasts.
        #expect(h.service.apps.apps.map(\.app) == ["Chat", "Mail", "News"])
        #expect(h.service.apps.apps.map(\.live) == [2, 1, 1])
        // Its click opens the center; it leaves no trace in history.
        let (_, effects) = h.service.invoke(summary[0], action: "default", at: t0 + 6)
        #expect(effects.contains { if case .center(open: true) = $0 { true } else { false } })
        #expect(!h.historyTitles.contains("While sharing the screen"))
    }

    @Test("fewer than missed-summary, or missed-summary=0, says nothing", arguments: ["", "missed-summary=0"])
    func none(_ config: String) {
        var h = ServiceHarness(config)
        h.run(h.service.setModes(.add("do-not-disturb"), at: t0), at: t0)
        for index in 0 ..< (config.isEmpty ? 2 : 5) { h.post("n\(index)", at: t0) }
        h.run(h.service.setModes(.remove("do-not-disturb"), at: t0), at: t0)
        #expect(h.liveIDs.isEmpty, "nothing new on screen")
    }

    @Test("two holds overlapping are one spell, named by the first")
    func overlapping() {
        var h = ServiceHarness()
        h.run(h.service.setModes(.add("do-not-disturb"), at: t0), at: t0)
        for index in 0 ..< 3 { h.post("n\(index)", at: t0) }
        h.run(h.service.setSharing(true, at: t0), at: t0)
        h.run(h.service.setModes(.remove("do-not-disturb"), at: t0), at: t0)
        #expect(h.liveIDs.isEmpty, "the share still holds")
        h.run(h.service.setSharing(false, at: t0), at: t0)
        #expect(h.service.live.map(\.title) == ["While do-not-disturb was on"])
    }
}

@Suite("The quiet file")
struct QuietChoicesFileTests {
    @Test("what is written reads back the same")
    func roundTrip() throws {
        var choices = QuietChoices()
        choices.modeEnds = ["do-not-disturb": 1_700_003_600]
        choices.snoozes = [42: 1_700_000_600, 7: 1_700_000_900]
        choices.apps = ["Chat": .muted, "Phone": .allowed]
        var warnings: [String] = []
        #expect(try QuietChoices(file: choices.encoded(), warnings: &warnings) == choices)
        #expect(warnings.isEmpty)
    }

    @Test("a flipped bit anywhere is noticed")
    func damage() {
        var choices = QuietChoices()
        choices.apps = ["Chat": .muted]
        let bytes = choices.encoded()
        for offset in 0 ..< bytes.count - 1 {
            var damaged = bytes
            damaged[offset] ^= 0x04
            var warnings: [String] = []
            #expect((try? QuietChoices(file: damaged, warnings: &warnings)) != choices, "offset \(offset)")
        }
    }

    @Test("bad entries are left out one by one, with a warning each")
    func badEntries() throws {
        let line = #"{"version":1,"mode_ends":{"dnd":"soon","work":1700000000},"snoozes":{"0":5,"x":5,"9":1.5,"3":1700000000},"apps":{"A":"loud","B":"muted"}}"#
        var warnings: [String] = []
        let choices = try QuietChoices(file: SealedLine.line(Array(line.utf8)), warnings: &warnings)
        #expect(choices.modeEnds == ["work": 1_700_000_000])
        #expect(choices.snoozes == [3: 1_700_000_000])
        #expect(choices.apps == ["B": .muted])
        #expect(warnings.count == 5)
    }
}

private extension Result where Failure == ControlError {
    var failureCode: ControlErrorCode? {
        if case .failure(let error) = self { error.code } else { nil }
    }
}

@Suite("Times for quiet, as perchctl reads them")
struct QuietTimesTests {
    @Test("durations add their parts; nonsense, zero and more than a year are refused")
    func durations() {
        #expect(QuietTimes.duration("90s") == 90 && QuietTimes.duration("10m") == 600)
        #expect(QuietTimes.duration("1h30m") == 5_400 && QuietTimes.duration("2d") == 172_800)
        #expect(QuietTimes.duration("45") == 45)
        for bad in ["", "0", "0s", "1x", "h", "-5m", "400d", "9999999999"] { #expect(QuietTimes.duration(bad) == nil, "\(bad)") }
    }

    @Test("HH:MM is the next such time in the zone: today's while to come, else tomorrow's")
    func nextTime() {
        // 2023-11-14 22:13:20 UTC; a zone two hours ahead shows 00:13:20 on the 15th.
        let now: Int64 = 1_700_000_000
        #expect(QuietTimes.next("23:00", after: now, utcOffset: 0) == now + 2_800)
        #expect(QuietTimes.next("08:00", after: now, utcOffset: 0) == now + 35_200)
        #expect(QuietTimes.next("08:00", after: now, utcOffset: 7_200) == now + 35_200 - 7_200 + 0)
        for bad in ["8", "24:00", "07:60", "7:5:0", "ab:cd", ""] { #expect(QuietTimes.next(bad, after: now, utcOffset: 0) == nil) }
    }

    @Test("a span reads at a glance")
    func span() {
        #expect(QuietTimes.span(45) == "45 s" && QuietTimes.span(2_520) == "42 min")
        #expect(QuietTimes.span(5_400) == "1 h 30 min" && QuietTimes.span(183_600) == "2 d 3 h")
    }
}

@Suite("The quiet requests on the wire")
struct QuietCodecTests {
    private func decode(_ line: String) -> Result<ControlRequest, ControlError> {
        ControlProtocol.decode(line: Array(line.utf8)).request
    }

    @Test("mode takes for or until with add or toggle; snooze needs one; apps sets a choice")
    func decoding() throws {
        #expect(try decode(#"{"id":1,"method":"mode","params":{"add":"do-not-disturb","for":3600}}"#).get()
            == .mode(.add("do-not-disturb"), ending: .after(3_600)))
        #expect(try decode(#"{"id":1,"method":"snooze","params":{"id":4,"until":1700000600}}"#).get()
            == .snooze(id: 4, ending: .at(1_700_000_600)))
        #expect(try decode(#"{"id":1,"method":"apps","params":{"app":"Chat","choice":"none"}}"#).get()
            == .apps(app: "Chat", choice: nil))
        for bad in [#"{"id":1,"method":"mode","params":{"remove":"x","for":60}}"#,
                    #"{"id":1,"method":"mode","params":{"add":"x","for":60,"until":5}}"#,
                    #"{"id":1,"method":"mode","params":{"add":"x","for":0.5}}"#,
                    #"{"id":1,"method":"snooze","params":{"id":4}}"#,
                    #"{"id":1,"method":"apps","params":{"app":"Chat"}}"#,
                    #"{"id":1,"method":"apps","params":{"app":"Chat","choice":"loud"}}"#] {
            #expect((try? decode(bad).get()) == nil, "\(bad)")
        }
    }
}
