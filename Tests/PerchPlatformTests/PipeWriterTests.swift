import Glibc
import Testing
@testable import PerchPlatform

/// A pipe: the write end for a PipeWriter, the read end for the test.
private func pipePair() -> (read: Int32, write: Int32) {
    var fds: [Int32] = [0, 0]
    precondition(pipe(&fds) == 0)
    return (fds[0], fds[1])
}

/// Reads what is there now, without waiting.
private func drain(_ fd: Int32) -> [UInt8] {
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    var result: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard count > 0 else { break }
        result += buffer[..<count]
    }
    return result
}

@Suite("Writing the clipboard's text to a pasting program")
struct PipeWriterTests {
    @Test("what fits is written at once and the pipe closed; the reader sees its end")
    func small() {
        let loop = EventLoop()
        let (reader, writer) = pipePair()
        defer { close(reader) }
        var ended = 0
        let pipeWriter = PipeWriter(adopting: writer, bytes: Array("482913".utf8), loop: loop) { _ in ended += 1 }
        #expect(pipeWriter.isDone && ended == 1)
        #expect(drain(reader) == Array("482913".utf8))
        var byte: UInt8 = 0
        #expect(read(reader, &byte, 1) == 0)
    }

    @Test("more than the pipe holds goes on as the reader drains it, the loop never blocking")
    func large() throws {
        let loop = EventLoop()
        let (reader, writer) = pipePair()
        defer { close(reader) }
        let bytes = (0..<300_000).map { UInt8(truncatingIfNeeded: $0) }
        var ended = false
        let pipeWriter = PipeWriter(adopting: writer, bytes: bytes, loop: loop) { _ in ended = true }
        #expect(!pipeWriter.isDone)
        var received: [UInt8] = []
        for _ in 0..<100 where !ended {
            received += drain(reader)
            try loop.runOnce(timeoutMilliseconds: 100)
        }
        received += drain(reader)
        #expect(ended && received == bytes)
    }

    @Test("a reader that goes away ends the write (EPIPE, not a signal)")
    func readerGone() throws {
        signal(SIGPIPE, SIG_IGN)
        let loop = EventLoop()
        let (reader, writer) = pipePair()
        var ended = false
        let pipeWriter = PipeWriter(adopting: writer, bytes: [UInt8](repeating: 7, count: 300_000), loop: loop) { _ in
            ended = true
        }
        #expect(!pipeWriter.isDone)
        close(reader)
        try loop.runOnce(timeoutMilliseconds: 100)
        #expect(ended && pipeWriter.isDone)
    }
}
