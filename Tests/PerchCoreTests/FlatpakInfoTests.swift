import Testing
import PerchCore

/// `/.flatpak-info` as Flatpak writes it and as a hostile sandbox might.
@Suite("Flatpak info")
struct FlatpakInfoTests {
    private func appID(_ text: String) -> Result<String, FlatpakInfo.Problem> {
        FlatpakInfo.appID(in: Array(text.utf8))
    }

    @Test("the app id of the [Application] group, as flatpak run writes it")
    func application() {
        let text = """
            [Application]
            name=org.example.App
            runtime=runtime/org.freedesktop.Platform/x86_64/23.08

            [Instance]
            instance-id=1234567890
            app-path=/var/lib/flatpak/app/org.example.App/x86_64/stable/active/files
            session-bus-proxy=true

            [Context]
            shared=network;ipc;
            sockets=x11;wayland;pulseaudio;
            """
        #expect(appID(text) == .success("org.example.App"))
    }

    @Test("a sandbox for a runtime alone is named by its [Runtime] group, as the portal reads it")
    func runtime() {
        #expect(appID("[Runtime]\nname=org.freedesktop.Sdk\n") == .success("org.freedesktop.Sdk"))
        #expect(appID("[Application]\nname=org.example.App\n[Runtime]\nname=org.freedesktop.Sdk\n")
                == .success("org.freedesktop.Sdk"))
    }

    @Test("CRLF line ends, blanks around the value and comments are read as a key file allows")
    func keyFileSyntax() {
        #expect(appID("# written by hand\r\n[Application]\r\nname = org.example.App \r\n") == .success("org.example.App"))
    }

    @Test("garbage, an empty file, a missing name and binary noise name no app", arguments: [
        "", "\u{0}\u{1}\u{2}binary", "name=org.example.App", "[Application]\n", "[Instance]\nname=org.example.App\n",
    ])
    func noName(_ text: String) {
        guard case .failure(let problem) = appID(text) else {
            Issue.record("\(text.debugDescription) should name no app")
            return
        }
        #expect(problem.message == "has no name in [Application] or [Runtime]")
    }

    @Test("a name that is not an app id is refused with why", arguments: [
        ("org.example", "it has fewer than three elements"),
        ("org..App", "an element is empty"),
        ("org.example.9lives", "an element starts with a digit"),
        ("org.ex-ample.App", "only its last element may contain \"-\""),
        ("org.example.App/../x", "it contains a character other than letters, digits, \"_\" and \"-\""),
        ("org.example.Äpp", "it contains a character other than letters, digits, \"_\" and \"-\""),
        (":1.42.x", "it contains a character other than letters, digits, \"_\" and \"-\""),
        ("org.example." + String(repeating: "a", count: 250), "it is longer than 255 bytes"),
    ])
    func invalidName(_ name: String, _ why: String) {
        #expect(FlatpakInfo.problem(withAppID: name) == why)
        guard case .failure(let problem) = appID("[Application]\nname=\(name)\n") else {
            Issue.record("\(name) should be refused")
            return
        }
        #expect(problem.message.hasSuffix("which is not an app id: \(why)"))
    }

    @Test("valid ids: underscores, digits after the first character, a dash in the last element")
    func validNames() {
        for name in ["org.example.App", "com.github.user_name.Tool2", "io.example.my-app", "_org._x._y"] {
            #expect(FlatpakInfo.problem(withAppID: name) == nil, "\(name)")
        }
    }

    @Test("a file past the bound is refused before it is parsed")
    func tooLarge() {
        let bytes = Array("[Application]\nname=org.example.App\n".utf8)
            + [UInt8](repeating: UInt8(ascii: "#"), count: FlatpakInfo.maximumBytes)
        guard case .failure(let problem) = FlatpakInfo.appID(in: bytes) else {
            Issue.record("a file over the bound should be refused")
            return
        }
        #expect(problem.message == "is \(bytes.count) bytes, more than \(FlatpakInfo.maximumBytes)")
    }

    @Test("a quoted name in the log is short and printable")
    func quotedName() {
        guard case .failure(let problem) = appID("[Application]\nname=bad\u{1B}[31m" + String(repeating: "x", count: 100)) else {
            Issue.record("should be refused")
            return
        }
        #expect(!problem.message.unicodeScalars.contains { $0.value < 0x20 })
        #expect(problem.message.contains("…"))
    }
}
