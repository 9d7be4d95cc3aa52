/// One finger on one toast, from touch-down to touch-up: tells a tap from
/// a horizontal swipe, and on release whether the swipe flings the toast
/// away or lets it spring back. Positions are in stage-local surface
/// pixels (the finger's place on the stage, not on the moving toast).
public struct TouchGesture: Equatable, Sendable {
    /// How far a finger may wander and still tap, surface pixels.
    public static let tapSlop = 10.0
    /// How long a tap may last, seconds.
    public static let tapDuration = 0.3
    /// Release speed that flings the toast away whatever the distance,
    /// surface pixels per second.
    public static let flingVelocity = 800.0

    public enum Outcome: Equatable, Sendable {
        case tap
        /// Swiped off towards that edge.
        case fling(Edge)
        /// Let go too early: back to the slot.
        case springBack
    }

    public let startX: Double
    public let startY: Double
    public let startTime: Instant
    /// Width of the toast; a swipe past a third of it dismisses.
    public let width: Double
    public private(set) var x: Double
    public private(set) var y: Double
    /// Set once the finger moved more horizontally than vertically past
    /// the slop: the toast then follows it.
    public private(set) var isSwiping = false
    /// Recent (time, x) samples for the release velocity.
    private var samples: [(Instant, Double)] = []

    public init(x: Double, y: Double, at time: Instant, width: Double) {
        startX = x
        startY = y
        startTime = time
        self.width = width
        self.x = x
        self.y = y
        samples = [(time, x)]
    }

    /// How far the toast should be pulled sideways now (0 until swiping).
    public var offset: Double { isSwiping ? x - startX : 0 }

    public mutating func move(x newX: Double, y newY: Double, at time: Instant) {
        x = newX
        y = newY
        if !isSwiping {
            let dx = abs(x - startX), dy = abs(y - startY)
            if dx > TouchGesture.tapSlop && dx > dy { isSwiping = true }
        }
        samples.append((time, x))
        // The velocity is taken over the last 100 ms.
        samples.removeAll { time - $0.0 > 0.1 }
    }

    public static func == (a: TouchGesture, b: TouchGesture) -> Bool {
        a.startX == b.startX && a.startY == b.startY && a.startTime == b.startTime && a.x == b.x
            && a.y == b.y && a.isSwiping == b.isSwiping && a.width == b.width
    }

    /// Horizontal speed over the last samples, surface pixels per second.
    public func velocity(at time: Instant) -> Double {
        guard let first = samples.first else { return 0 }
        // Event times have millisecond resolution: a flick may fit in one.
        return (x - first.1) / max(time - first.0, 0.001)
    }

    /// What letting go at `time` means.
    public func release(at time: Instant) -> Outcome {
        let moved = ((x - startX) * (x - startX) + (y - startY) * (y - startY)).squareRoot()
        if !isSwiping {
            return moved <= TouchGesture.tapSlop && time - startTime <= TouchGesture.tapDuration ? .tap : .springBack
        }
        let speed = velocity(at: time)
        let offset = x - startX
        if abs(offset) > width / 3 || (abs(speed) >= TouchGesture.flingVelocity && speed * offset > 0) {
            return .fling(offset > 0 ? .right : .left)
        }
        return .springBack
    }
}
