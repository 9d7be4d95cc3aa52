import Glibc
import Testing
import PerchCore
@testable import PerchPlatform

/// The permission bits of the file at `path`, or nil if there is none.
private func mode(_ path: String) -> mode_t? {
    var info = stat()
    guard lstat(path, &info) == 0 else { return nil }
    return info.st_mode & 0o7777
}

private func exists(_ path: String) -> Bool { mode(path) != nil }

private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

@Suite("State file")
struct StateFileTests {
    @Test("write then read gives back the bytes")
    func writeThenRead() throws {
        let directory = TemporaryDirectory("state-test")
        let path = "\(directory.path)/state.json"
        let content = bytes("{\"hello\":\"wörld\"}\n") + [0, 255]
        try StateFile.write(content, to: path)
        #expect(try StateFile.read(path) == content)
    }

    @Test("reading a file that does not exist gives nil")
    func readMissing() throws {
        let directory = TemporaryDirectory("state-test")
        #expect(try StateFile.read("\(directory.path)/nothing.json") == nil)
    }

    @Test("the file is 0600 and the directories it creates are 0700")
    func modes() throws {
        let directory = TemporaryDirectory("state-test")
        let stateDirectory = "\(directory.path)/state/perch"
        let path = "\(stateDirectory)/state.json"
        try StateFile.write(bytes("{}"), to: path)
        #expect(mode(path) == 0o600)
        #expect(mode(stateDirectory) == 0o700)
        #expect(mode("\(directory.path)/state") == 0o700)
    }

    @Test("a second write replaces the file and leaves no temp file behind")
    func secondWriteReplaces() throws {
        let directory = TemporaryDirectory("state-test")
        let path = "\(directory.path)/state.json"
        try StateFile.write(bytes("old and longer"), to: path)
        try StateFile.write(bytes("new"), to: path)
        #expect(try StateFile.read(path) == bytes("new"))
        #expect(TemporaryDirectory.names(in: directory.path) == ["state.json"])
    }

    @Test("a temp file left by a crashed write changes nothing and is overwritten by the next write")
    func leftoverTempFile() throws {
        let directory = TemporaryDirectory("state-test")
        let path = "\(directory.path)/state.json"
        try StateFile.write(bytes("old"), to: path)
        // What a crash between open and rename leaves: a partial temp file.
        let temporary = "\(path).tmp-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT, 0o600)
        _ = write(fd, "partial garbage that is longer", 30)
        close(fd)
        #expect(try StateFile.read(path) == bytes("old"))
        try StateFile.write(bytes("new"), to: path)
        #expect(try StateFile.read(path) == bytes("new"))
        #expect(!exists(temporary))
    }

    @Test("a failed write leaves the old file and no temp file")
    func failedWrite() throws {
        let directory = TemporaryDirectory("state-test")
        let path = "\(directory.path)/state.json"
        try StateFile.write(bytes("old"), to: path)
        // A directory in the temp file's place makes its open fail.
        let temporary = "\(path).tmp-\(getpid())"
        mkdir(temporary, 0o700)
        #expect(throws: SystemError.self) { try StateFile.write(bytes("new"), to: path) }
        #expect(try StateFile.read(path) == bytes("old"))
        rmdir(temporary)
    }

    @Test("loading a missing file is a fresh start")
    func loadMissing() {
        let directory = TemporaryDirectory("state-test")
        #expect(StateFile.load("\(directory.path)/state.json", now: 1) == .fresh)
    }

    @Test("loading a written state gives it back")
    func loadWritten() throws {
        let directory = TemporaryDirectory("state-test")
        let path = "\(directory.path)/state.json"
        var history = History()
        history.append(HistoryEntry(notification: Notification(id: 4, title: "hi"), reason: .expired, closedAt: 99))
        let state = PersistentState(history: history, modes: ["dnd"],
                                    live: [LiveNotification(notification: Notification(id: 5, title: "up"),
                                                            remaining: 1.5, postedAt: 98)],
                                    nextID: 6)
        try StateFile.write(state.encoded(), to: path)
        #expect(StateFile.load(path, now: 100) == .loaded(state))
    }

    @Test("loading a corrupt file sets it aside with its bytes and reports why")
    func loadCorrupt() throws {
        let directory = TemporaryDirectory("state-test")
        let path = "\(directory.path)/state.json"
        let garbage = bytes("{\"version\":1,")
        try StateFile.write(garbage, to: path)
        guard case .corrupt(let aside, let reason) = StateFile.load(path, now: 1_767_225_600) else {
            Issue.record("expected .corrupt")
            return
        }
        #expect(aside == "\(path).corrupt-1767225600")
        #expect(reason.hasPrefix("not JSON"))
        #expect(!exists(path))
        #expect(try StateFile.read(aside) == garbage)
    }

    @Test("a file of a newer version is set aside too, with the version in the reason")
    func loadNewerVersion() throws {
        let directory = TemporaryDirectory("state-test")
        let path = "\(directory.path)/state.json"
        try StateFile.write(bytes(#"{"version":3}"#), to: path)
        guard case .corrupt(_, let reason) = StateFile.load(path, now: 5) else {
            Issue.record("expected .corrupt")
            return
        }
        #expect(reason == #""version" is 3; this Perch reads versions 1 and 2"#)
        #expect(!exists(path))
    }

    @Test("setting aside twice in one second keeps both files")
    func setAsideTwice() throws {
        let directory = TemporaryDirectory("state-test")
        let path = "\(directory.path)/state.json"
        try StateFile.write(bytes("first"), to: path)
        let first = try StateFile.setAside(path, now: 7)
        try StateFile.write(bytes("second"), to: path)
        let second = try StateFile.setAside(path, now: 7)
        #expect(first == "\(path).corrupt-7")
        #expect(second == "\(path).corrupt-7.1")
        #expect(try StateFile.read(first) == bytes("first"))
        #expect(try StateFile.read(second) == bytes("second"))
    }

    @Test("an unreadable path (a directory) is set aside rather than overwritten later")
    func loadDirectory() throws {
        let directory = TemporaryDirectory("state-test")
        let path = "\(directory.path)/state.json"
        mkdir(path, 0o700)
        guard case .corrupt(let aside, _) = StateFile.load(path, now: 3) else {
            Issue.record("expected .corrupt")
            return
        }
        #expect(!exists(path))
        #expect(exists(aside))
    }

    @Test("the state directory is $XDG_STATE_HOME/perch, else ~/.local/state/perch")
    func stateDirectory() {
        func directory(_ variables: [String: String]) -> String? {
            StateFile.stateDirectory { variables[$0] }
        }
        #expect(directory(["XDG_STATE_HOME": "/x/state", "HOME": "/home/a"]) == "/x/state/perch")
        #expect(directory(["HOME": "/home/a"]) == "/home/a/.local/state/perch")
        #expect(directory(["XDG_STATE_HOME": "", "HOME": "/home/a"]) == "/home/a/.local/state/perch")
        #expect(directory(["XDG_STATE_HOME": "relative", "HOME": "/home/a"]) == "/home/a/.local/state/perch")
        #expect(directory([:]) == nil)
    }

    @Test("the parent of a path is everything before its last slash")
    func parentDirectory() {
        #expect(StateFile.parentDirectory(of: "/a/b/state.json") == "/a/b")
        #expect(StateFile.parentDirectory(of: "/state.json") == "/")
        #expect(StateFile.parentDirectory(of: "state.json") == ".")
        #expect(StateFile.parentDirectory(of: "/a/b/") == "/a")
    }
}
