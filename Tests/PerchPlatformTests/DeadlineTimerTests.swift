import Foundation
import Glibc
import PerchCore
import Testing
@testable import PerchPlatform

/// The timerfds of this process that /proc/self/fdinfo shows armed to
/// expire within `remaining` seconds from now. Other tests in the process
/// make timerfds at the same time, so counting all of them would race;
/// the tests arm theirs hours out, where nothing else has a deadline.
private func timerFDs(armedWithin remaining: ClosedRange<Double>) -> [Int32] {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
    return entries.compactMap { entry -> Int32? in
        guard let fd = Int32(entry),
              (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(entry)"))
                == "anon_inode:[timerfd]",
              let info = try? String(contentsOfFile: "/proc/self/fdinfo/\(entry)", encoding: .utf8),
              let line = info.split(separator: "\n").first(where: { $0.hasPrefix("it_value:") })
        else { return nil }
        // "it_value: (6999, 240895129)": seconds and nanoseconds left.
        let numbers = line.split { !$0.isNumber }.compactMap { Double($0) }
        guard numbers.count == 2 else { return nil }
        return remaining.contains(numbers[0] + numbers[1] / 1e9) ? fd : nil
    }
}

/// Turns `loop` (each poll at most `sliceMilliseconds`) until `condition`
/// holds or a second passes.
private func turn(_ loop: EventLoop, sliceMilliseconds: Int32 = 200, until condition: () -> Bool) throws {
    let giveUp = MonotonicClock.now() + 1
    while !condition(), MonotonicClock.now() < giveUp {
        try loop.runOnce(timeoutMilliseconds: sliceMilliseconds)
    }
}

@Suite("Deadline timers")
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

    @Test("two deadlines fire in their order")
    func twoInOrder() throws {
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

    @Test("however many timers a loop has, one timerfd is armed, for the earliest of them")
    func oneTimerFD() throws {
        let loop = EventLoop()
        let start = MonotonicClock.now()
        // Hours out, a hundred seconds apart, the earliest added last.
        let timers = try (0..<5).map { _ in try DeadlineTimer(loop: loop) {} }
        for (index, timer) in timers.enumerated() { timer.arm(at: start + (7400 - Double(index) * 100)) }
        try loop.runOnce(timeoutMilliseconds: 0)
        let loopFD = try loop.deadlineSchedule().fd.rawValue
        #expect(timerFDs(armedWithin: 6900...7500) == [loopFD])
        #expect(timerFDs(armedWithin: 6990...7000) == [loopFD])
    }
}
