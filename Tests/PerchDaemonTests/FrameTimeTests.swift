@testable import PerchCore
@testable import PerchDaemon
import Testing

/// How the scene reads a frame callback's timestamp (milliseconds on the
/// compositor's clock, wrapping at 2³²) as an instant on the monotonic
/// clock: the frame the next `present` answers.
struct FrameTimeTests {
    private static let millisecond: Int64 = 1_000_000

    private func instant(ofFrame time: UInt32, nowMilliseconds: Int64) -> Instant {
        Scene.instant(ofFrame: time, now: Instant(nanoseconds: nowMilliseconds * Self.millisecond))
    }

    @Test("a frame a few milliseconds ago is that long before now")
    func recentFrame() {
        #expect(instant(ofFrame: 4_990, nowMilliseconds: 5_000) == Instant(nanoseconds: 4_990 * Self.millisecond))
        #expect(instant(ofFrame: 5_000, nowMilliseconds: 5_000) == Instant(nanoseconds: 5_000 * Self.millisecond))
    }

    @Test("a frame just before the millisecond counter wrapped is read across the wrap")
    func acrossTheWrap() {
        let now: Int64 = (1 << 32) + 5
        #expect(instant(ofFrame: UInt32.max - 4, nowMilliseconds: now)
            == Instant(nanoseconds: (now - 10) * Self.millisecond))
    }

    @Test("a timestamp not within the last second, or ahead of now, counts as now")
    func otherClock() {
        let now = Instant(nanoseconds: 50_000 * Self.millisecond)
        #expect(instant(ofFrame: 49_001, nowMilliseconds: 50_000) == Instant(nanoseconds: 49_001 * Self.millisecond))
        #expect(instant(ofFrame: 49_000, nowMilliseconds: 50_000) == now)
        #expect(instant(ofFrame: 50_005, nowMilliseconds: 50_000) == now)
        #expect(instant(ofFrame: 12, nowMilliseconds: 50_000) == now)
    }
}
