import Foundation
import Glibc
import PerchCore
import Testing
@testable import PerchPlatform

/// The timerfds this process has open, by what /proc says they are.
private func openTimerFDs() -> Int {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
    return entries.filter { entry in
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(entry)")) == "anon_inode:[timerfd]"
    }.count
}

/// Turns `loop` (each poll at most `sliceMilliseconds`) until `condition`
/// holds or a second passes.
private func turn(_ loop: EventLoop, sliceMilliseconds: Int32 = 200, until condition: () -> Bool) throws {
    let giveUp = MonotonicClock.now() + 1
    while !condition(), MonotonicClock.now() < giveUp {
        try loop.runOnce(timeoutMilliseconds: sliceMilliseconds)
    }
}

// Serialized: one test counts the process's timerfds, which the others make.
@Suite("Deadline timers", .serialized)
struct DeadlineTimerTests {
    @Test("a timer fires once, not before its instant, and not again")
    func firesOnce() throws {
        let loop = EventLoop()
        var firedAt: [Instant] = []
        let timer = try DeadlineTimer(loop: loop) { firedAt.append(MonotonicClock.now()) }
        let deadline = MonotonicClock.now() + 0.02
        timer.arm(at: deadline)
        try turn(loop) { !firedAt.isEmpty }
        #expect(firedAt.count == 1)
        #expect(firedAt.allSatisfy { $0 >= deadline })
        #expect(timer.deadline == nil)
        try loop.runOnce(timeoutMilliseconds: 50)
        #expect(firedAt.count == 1)
    }

    @Test("two deadlines fire in their order from the loop's one timerfd")
    func twoInOrder() throws {
        let before = openTimerFDs()
        let loop = EventLoop()
        var fired: [(name: String, at: Instant)] = []
        let late = try DeadlineTimer(loop: loop) { fired.append(("late", MonotonicClock.now())) }
        let early = try DeadlineTimer(loop: loop) { fired.append(("early", MonotonicClock.now())) }
        let start = MonotonicClock.now()
        late.arm(at: start + 0.04)
        early.arm(at: start + 0.015)
        try turn(loop) { fired.count == 2 }
        #expect(fired.map(\.name) == ["early", "late"])
        #expect(fired.first.map { $0.at >= start + 0.015 } == true)
        #expect(fired.last.map { $0.at >= start + 0.04 } == true)
        #expect(openTimerFDs() == before + 1)
    }

    @Test("deadlines that are due together all run on one wake-up, earliest first, ties as added")
    func dueTogether() throws {
        let loop = EventLoop()
        var fired: [String] = []
        let a = try DeadlineTimer(loop: loop) { fired.append("a") }
        let b = try DeadlineTimer(loop: loop) { fired.append("b") }
        let c = try DeadlineTimer(loop: loop) { fired.append("c") }
        let start = MonotonicClock.now()
        a.arm(at: start + 0.01)
        b.arm(at: start + 0.005)
        c.arm(at: start + 0.01)
        usleep(20_000)
        try loop.runOnce(timeoutMilliseconds: 1000)
        #expect(fired == ["b", "a", "c"])
    }

    @Test("re-arming to a later instant does not fire at the earlier one")
    func rearmLater() throws {
        let loop = EventLoop()
        var firedAt: Instant?
        let timer = try DeadlineTimer(loop: loop) { firedAt = MonotonicClock.now() }
        timer.arm(at: MonotonicClock.now() + 0.02)
        // The timerfd is now armed for the earlier instant.
        try loop.runOnce(timeoutMilliseconds: 0)
        let later = MonotonicClock.now() + 0.25
        timer.arm(at: later)
        let start = MonotonicClock.now()
        try loop.runOnce(timeoutMilliseconds: 100)
        #expect(firedAt == nil)
        // Nothing woke the poll early either: it slept its whole timeout.
        #expect(MonotonicClock.now() - start >= 0.09)
        try turn(loop) { firedAt != nil }
        #expect(firedAt.map { $0 >= later } == true)
    }

    @Test("a disarmed timer neither fires nor wakes the loop")
    func disarm() throws {
        let loop = EventLoop()
        var fired = 0
        let timer = try DeadlineTimer(loop: loop) { fired += 1 }
        timer.arm(at: MonotonicClock.now() + 0.01)
        try loop.runOnce(timeoutMilliseconds: 0)
        timer.arm(at: nil)
        #expect(timer.deadline == nil)
        let start = MonotonicClock.now()
        try loop.runOnce(timeoutMilliseconds: 60)
        #expect(fired == 0)
        #expect(MonotonicClock.now() - start >= 0.05)
    }

    @Test("a timer that is dropped takes its deadline with it")
    func dropped() throws {
        let loop = EventLoop()
        var fired = 0
        var timer: DeadlineTimer? = try DeadlineTimer(loop: loop) { fired += 1 }
        timer?.arm(at: MonotonicClock.now() + 0.01)
        try loop.runOnce(timeoutMilliseconds: 0)
        timer = nil
        let start = MonotonicClock.now()
        try loop.runOnce(timeoutMilliseconds: 60)
        #expect(fired == 0)
        #expect(MonotonicClock.now() - start >= 0.05)
    }

    @Test("a handler may arm itself again, and arm another timer")
    func rearmFromHandler() throws {
        let loop = EventLoop()
        var events: [String] = []
        var other: DeadlineTimer?
        var ticker: DeadlineTimer?
        ticker = try DeadlineTimer(loop: loop) {
            events.append("tick")
            if events.count < 3 {
                ticker?.arm(at: MonotonicClock.now() + 0.005)
            } else {
                other?.arm(at: MonotonicClock.now())
            }
        }
        other = try DeadlineTimer(loop: loop) { events.append("other") }
        ticker?.arm(at: MonotonicClock.now() + 0.005)
        try turn(loop) { events.count == 4 }
        #expect(events == ["tick", "tick", "tick", "other"])
        // The handlers hold the variables that hold their timers.
        ticker = nil
        other = nil
    }

    @Test("arming a timer behind the earliest deadline, or to the same instant, sets nothing")
    func noSyscallWhenTheEarliestStays() throws {
        let loop = EventLoop()
        let first = try DeadlineTimer(loop: loop) {}
        let second = try DeadlineTimer(loop: loop) {}
        let schedule = try loop.deadlineSchedule()
        let start = MonotonicClock.now()
        first.arm(at: start + 10)
        try loop.runOnce(timeoutMilliseconds: 0)
        #expect(schedule.timerSettings == 1)
        second.arm(at: start + 20)
        first.arm(at: start + 10)
        try loop.runOnce(timeoutMilliseconds: 0)
        try loop.runOnce(timeoutMilliseconds: 0)
        #expect(schedule.timerSettings == 1)
        second.arm(at: start + 5)
        try loop.runOnce(timeoutMilliseconds: 0)
        #expect(schedule.timerSettings == 2)
        first.arm(at: nil)
        second.arm(at: nil)
        try loop.runOnce(timeoutMilliseconds: 0)
        #expect(schedule.timerSettings == 3)
    }

    @Test("a loop has no timerfd before its first timer and only one however many it has")
    func oneTimerFD() throws {
        let before = openTimerFDs()
        let loop = EventLoop()
        #expect(openTimerFDs() == before)
        let start = MonotonicClock.now()
        let timers = try (0..<5).map { _ in try DeadlineTimer(loop: loop) {} }
        for (index, timer) in timers.enumerated() { timer.arm(at: start + Double(index + 1)) }
        try loop.runOnce(timeoutMilliseconds: 0)
        #expect(openTimerFDs() == before + 1)
    }
}
