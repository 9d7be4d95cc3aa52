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

    @Test("pre-poll hooks run stage by stage, in the order added within a stage, whoever registered first")
    func hookStages() throws {
        let loop = EventLoop()
        var ran: [String] = []
        // As a daemon may register them: the connections first.
        loop.addPrePollHook(.flush) { ran.append("display flush") }
        loop.addPrePollHook(.endTurn) { ran.append("end of turn") }
        loop.addPrePollHook(.flush) { ran.append("bus flush") }
        loop.addPrePollHook(.deliver) { ran.append("icons delivered") }
        try loop.runOnce(timeoutMilliseconds: 0)
        #expect(ran == ["icons delivered", "end of turn", "display flush", "bus flush"])
    }

    @Test("a source's events can change between turns: off, then writable, then readable")
    func eventsChange() throws {
        let loop = EventLoop()
        var ends: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        var seen: [Int16] = []
        let token = loop.add(fd: ends[0], events: 0) { seen.append($0) }
        try loop.runOnce(timeoutMilliseconds: 0)
        #expect(seen.isEmpty)
        loop.setEvents(token, Int16(POLLOUT))
        try loop.runOnce(timeoutMilliseconds: 0)
        #expect(seen == [Int16(POLLOUT)])
        _ = write(ends[1], "x", 1)
        loop.setEvents(token, Int16(POLLIN))
        loop.setEvents(token, Int16(POLLIN))
        try loop.runOnce(timeoutMilliseconds: 0)
        #expect(seen == [Int16(POLLOUT), Int16(POLLIN)])
        loop.remove(token)
        loop.setEvents(token, Int16(POLLOUT))
        try loop.runOnce(timeoutMilliseconds: 0)
        #expect(seen.count == 2)
    }
}
