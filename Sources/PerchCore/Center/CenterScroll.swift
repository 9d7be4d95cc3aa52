/// The center's scroll offset (surface pixels from the top of the list
/// to the top of the panel) as a function of time: the wheel glides to a
/// target, a finger drags the list (rubber-banded past the ends), a
/// release flings it on with friction or springs it back from overscroll.
/// Pure: a frame at `now` asks `offset(at:)` and `isAnimating(at:)`.
public struct CenterScroll: Equatable, Sendable {
    /// Pixels of one wheel notch: 120 units of `wl_pointer.axis_value120`
    /// (a high-resolution wheel sends fractions of it). Three lines of
    /// body text, about what a browser scrolls.
    public static let notch = 48.0
    /// How long the wheel's glide to its target takes, seconds (ease-out:
    /// the list starts at once and slows into place).
    public static let wheelDuration = 0.15
    /// How long the list takes to spring back from overscroll, seconds.
    public static let springDuration = 0.3
    /// The furthest the list can be pulled past either end, pixels: the
    /// rubber band approaches it and never reaches it.
    public static let overscroll = 80.0
    /// How much of the finger's travel past an end shows at first
    /// (iOS's 0.55); it shrinks towards nothing near `overscroll`.
    public static let rubberBand = 0.55
    /// A flung list slows at this constant rate, pixels per second²:
    /// 2000 px/s travels 500 px in half a second.
    public static let friction = 4000.0
    /// Release speeds are capped at this, pixels per second.
    public static let maxFlingVelocity = 6000.0
    /// Slower releases stop where the finger left the list.
    public static let minFlingVelocity = 100.0
    /// The release velocity is taken over the finger's last 100 ms.
    public static let velocityWindow = 0.1
    /// Space kept above or below an entry scrolled into view, pixels.
    public static let revealMargin = 10.0

    struct Sample: Equatable, Sendable {
        var time: Instant
        var y: Double
    }

    enum Motion: Equatable, Sendable {
        case rest(Double)
        /// Wheel, reveal or spring-back: `from` to `to`, ease-out.
        case glide(from: Double, to: Double, since: Instant, duration: Double)
        /// A finger on the list: `start` is the unbanded offset at
        /// touch-down, `startY` and `fingerY` the finger's panel-local y.
        case drag(start: Double, startY: Double, fingerY: Double, samples: [Sample])
        /// Let go at `velocity` (pixels per second, positive = down the list).
        case fling(from: Double, velocity: Double, since: Instant)
    }

    /// The furthest offset within bounds (`CenterLayout.maxOffset`).
    public private(set) var maxOffset: Double
    private var motion: Motion

    public init(maxOffset: Double, offset: Double = 0) {
        self.maxOffset = max(0, maxOffset)
        motion = .rest(min(max(offset, 0), self.maxOffset))
    }

    // MARK: Queries

    public func offset(at now: Instant) -> Double {
        switch motion {
        case .rest(let offset):
            return offset
        case .glide(let from, let to, let since, let duration):
            return from + (to - from) * Easing.easeOut((now - since) / duration)
        case .drag(let start, let startY, let fingerY, _):
            return banded(start - (fingerY - startY))
        case .fling(let from, let velocity, let since):
            let t = min(max(0, now - since), abs(velocity) / Self.friction)
            let travelled = velocity * t - sign(velocity) * Self.friction * t * t / 2
            return clamped(from + travelled)
        }
    }

    /// Where the list comes to rest if nothing else happens.
    public func target(at now: Instant) -> Double {
        switch motion {
        case .rest(let offset): offset
        case .glide(_, let to, _, _): to
        case .drag: offset(at: now)
        case .fling(let from, let velocity, _):
            clamped(from + sign(velocity) * velocity * velocity / (2 * Self.friction))
        }
    }

    /// Whether frames are needed: the list still visibly moves on its own
    /// (a dragged list moves with the finger's events, not with frames).
    public func isAnimating(at now: Instant) -> Bool {
        switch motion {
        case .rest, .drag: false
        case .glide, .fling: abs(offset(at: now) - target(at: now)) >= 0.5
        }
    }

    public var isDragging: Bool {
        if case .drag = motion { return true }
        return false
    }

    // MARK: Wheel

    /// Scrolls by `pixels` (positive = down the list). Animated, the list
    /// glides there over `wheelDuration`; notches in quick succession add
    /// up, each starting from where the list is. Not animated (a
    /// touchpad's continuous axis), it jumps. A finger on the list wins.
    public mutating func scroll(by pixels: Double, animated: Bool = true, at now: Instant) {
        guard !isDragging else { return }
        let goal = clamped(base(at: now) + pixels)
        guard animated else { return motion = .rest(goal) }
        glide(to: goal, duration: Self.wheelDuration, at: now)
    }

    /// Scrolls by `wl_pointer.axis_value120` units: 120 is one notch.
    public mutating func scroll(value120: Int, at now: Instant) {
        scroll(by: Double(value120) / 120 * Self.notch, at: now)
    }

    // MARK: Touch

    /// A finger touched the panel at panel-local `y`: the list stops where
    /// it is (a fling or glide is caught) and follows the finger.
    public mutating func touchDown(y: Double, at now: Instant) {
        let start = unbanded(offset(at: now))
        motion = .drag(start: start, startY: y, fingerY: y, samples: [Sample(time: now, y: y)])
    }

    public mutating func touchMove(y: Double, at now: Instant) {
        guard case .drag(let start, let startY, _, var samples) = motion else { return }
        samples.append(Sample(time: now, y: y))
        samples.removeAll { now - $0.time > Self.velocityWindow }
        motion = .drag(start: start, startY: startY, fingerY: y, samples: samples)
    }

    /// The finger left: back from overscroll with a spring, or on with the
    /// finger's speed, or at rest where it is.
    public mutating func touchUp(at now: Instant) {
        guard case .drag(_, _, let fingerY, let samples) = motion else { return }
        let current = offset(at: now)
        if current < 0 || current > maxOffset {
            return glide(to: clamped(current), duration: Self.springDuration, at: now)
        }
        // A finger that stopped before letting go flings nothing.
        let recent = samples.filter { now - $0.time <= Self.velocityWindow }
        var velocity = 0.0
        if let first = recent.first {
            // Event times have millisecond resolution: a flick may fit in one.
            velocity = -(fingerY - first.y) / max(now - first.time, 0.001)
        }
        velocity = min(max(velocity, -Self.maxFlingVelocity), Self.maxFlingVelocity)
        motion = abs(velocity) >= Self.minFlingVelocity ? .fling(from: current, velocity: velocity, since: now)
            : .rest(current)
    }

    // MARK: Other changes

    /// Scrolls the least that shows the rows from `top` to `bottom` (list
    /// pixels) in a panel `viewportHeight` tall, with `revealMargin`; a row
    /// taller than the panel shows its top.
    public mutating func reveal(top: Int, bottom: Int, viewportHeight: Int, at now: Instant) {
        guard !isDragging else { return }
        let goal = base(at: now)
        let above = Double(top) - Self.revealMargin
        let below = Double(bottom) + Self.revealMargin - Double(viewportHeight)
        let wanted = goal > above ? above : goal < below ? min(below, above) : goal
        glide(to: clamped(wanted), duration: Self.wheelDuration, at: now)
    }

    /// The list grew or shrank: an offset past the new end moves to it.
    public mutating func setMaxOffset(_ value: Double, at now: Instant) {
        maxOffset = max(0, value)
        switch motion {
        case .rest(let offset): motion = .rest(clamped(offset))
        case .glide(_, let to, _, _) where to > maxOffset: glide(to: maxOffset, duration: Self.wheelDuration, at: now)
        case .fling: motion = .rest(clamped(offset(at: now)))
        case .glide, .drag: break
        }
    }

    /// The finger was taken away (`wl_touch.cancel`: the compositor
    /// claimed the touch): no fling, but back from overscroll.
    public mutating func touchCancel(at now: Instant) {
        guard isDragging else { return }
        glide(to: clamped(offset(at: now)), duration: Self.springDuration, at: now)
    }

    // MARK: Helpers

    /// What a wheel notch or a reveal moves from: the target of a glide
    /// under way (so notches add up), else where the list is (a wheel
    /// turned during a fling stops it there, within bounds).
    private func base(at now: Instant) -> Double {
        if case .glide(_, let to, _, _) = motion { return to }
        return clamped(offset(at: now))
    }

    /// Glides from the current offset to `goal`; at rest when already there.
    private mutating func glide(to goal: Double, duration: Double, at now: Instant) {
        let from = offset(at: now)
        motion = abs(goal - from) < 0.5 ? .rest(goal) : .glide(from: from, to: goal, since: now, duration: duration)
    }

    private func clamped(_ offset: Double) -> Double {
        min(max(offset, 0), maxOffset)
    }

    /// Past an end, shows `overscroll · (1 − 1 / (k·e / overscroll + 1))` of
    /// the excess `e`: `k·e` at first, never `overscroll`.
    private func banded(_ raw: Double) -> Double {
        if raw < 0 { return -band(-raw) }
        if raw > maxOffset { return maxOffset + band(raw - maxOffset) }
        return raw
    }

    /// The raw offset `banded` shows as `shown` (a finger catching a list
    /// that springs back picks it up where it is).
    private func unbanded(_ shown: Double) -> Double {
        if shown < 0 { return -unband(-shown) }
        if shown > maxOffset { return maxOffset + unband(shown - maxOffset) }
        return shown
    }

    private func band(_ excess: Double) -> Double {
        let limit = Self.overscroll
        return limit * (1 - 1 / (Self.rubberBand * excess / limit + 1))
    }

    private func unband(_ shown: Double) -> Double {
        let limit = Self.overscroll
        let shown = min(shown, limit - 0.001)
        return limit / Self.rubberBand * shown / (limit - shown)
    }

    private func sign(_ value: Double) -> Double { value < 0 ? -1 : 1 }
}
