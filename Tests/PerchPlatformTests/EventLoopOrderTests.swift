import Glibc
import Testing
@testable import PerchPlatform

@Suite("Event loop order")
struct EventLoopOrderTests {
    @Test("a late source is served after every other ready source of the turn, whatever the order they were added in")
    func lateSourceLast() throws {
        let loop = EventLoop()
        var pipes: [[Int32]] = []
        for _ in 0 ..< 3 {
            var ends: [Int32] = [0, 0]
            #expect(pipe(&ends) == 0)
            _ = write(ends[1], "x", 1)
            pipes.append(ends)
        }
        defer { for ends in pipes { close(ends[0]); close(ends[1]) } }
        var served: [String] = []
        // The listener is made first, as in the daemon; clients come later.
        _ = loop.add(fd: pipes[0][0], events: Int16(POLLIN), late: true) { _ in served.append("listener") }
        _ = loop.add(fd: pipes[1][0], events: Int16(POLLIN)) { _ in served.append("client 1") }
        _ = loop.add(fd: pipes[2][0], events: Int16(POLLIN)) { _ in served.append("client 2") }
        try loop.runOnce(timeoutMilliseconds: 0)
        #expect(served == ["client 1", "client 2", "listener"])
    }
}
