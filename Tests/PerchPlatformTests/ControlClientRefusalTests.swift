import Glibc
import Testing
import PerchCore
@testable import PerchPlatform

/// A listening socket at a fresh path, accepting by hand (no loop), so a
/// test decides what the "daemon" does with each connection.
private final class Listener {
    let path: String
    let fd: FileDescriptor

    init() throws {
        var template = Array("/tmp/perch-client-test-XXXXXX".utf8CString)
        let directory = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        path = "\(directory)/test.sock"
        fd = try UnixSocket.makeSocket(nonBlocking: false)
        let bound = try UnixSocket.withAddress(path) { bind(fd.rawValue, $0, $1) }
        #expect(bound == 0)
        #expect(listen(fd.rawValue, 8) == 0)
    }

    deinit {
        unlink(path)
        rmdir(StateFile.parentDirectory(of: path))
    }

    func accept() -> FileDescriptor {
        FileDescriptor(adopting: Glibc.accept(fd.rawValue, nil, nil))
    }
}

@Suite("Control client refused")
struct ControlClientRefusalTests {
    @Test("a daemon's refusal line, sent before it closes, is reported as the refusal and its reason",
          arguments: ["too many clients (256)", "perch serves uid 1000 only, not uid 0"])
    func refusal(reason: String) throws {
        signal(SIGPIPE, SIG_IGN)  // as perchctl does: a write to a closed socket is EPIPE
        let listener = try Listener()
        // The connection completes in the backlog, before any accept.
        let client = try ControlClient(path: listener.path)
        let line = ControlProtocol.encodeError(id: .null, ControlError(.refused, reason)) + "\n"
        UnixSocket.refuse(listener.accept(), saying: Array(line.utf8))
        do {
            let outcome = try client.call("status")
            Issue.record("the call returned \(outcome) instead of failing")
        } catch {
            #expect(error.description == "perch refused the connection: \(reason)")
        }
    }

    @Test("a daemon that closes without a word is a closed connection, not a JSON problem")
    func closedWithoutAWord() throws {
        signal(SIGPIPE, SIG_IGN)
        let listener = try Listener()
        let client = try ControlClient(path: listener.path)
        _ = listener.accept()  // and closed at once
        do {
            _ = try client.call("status")
            Issue.record("the call returned")
        } catch {
            #expect(["unexpected reply from perch: the connection closed", "write: Broken pipe",
                     "write: Connection reset by peer"].contains(error.description))
        }
    }
}
