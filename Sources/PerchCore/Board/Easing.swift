/// Easing curves: maps linear progress in 0...1 to eased progress.
/// Inputs outside 0...1 are clamped, so callers can pass raw elapsed/duration.
public enum Easing: String, Sendable, CaseIterable {
    case linear
    /// Fast start, gentle stop: for things arriving.
    case easeOut = "ease-out"
    /// Gentle start, fast finish: for things leaving.
    case easeIn = "ease-in"
    /// Gentle at both ends: for things moving between two rest positions.
    case easeInOut = "ease-in-out"
    /// Overshoots the end by about 10 % and settles back exactly on it: the
    /// bounce at the end of a slide.
    case backOut = "back-out"

    public func callAsFunction(_ progress: Double) -> Double {
        // Exact endpoints for every curve (rounding would leave e.g. 2e-16).
        if progress <= 0 { return 0 }
        if progress >= 1 { return 1 }
        let t = progress
        switch self {
        case .linear:
            return t
        case .easeOut:
            let u = 1 - t
            return 1 - u * u * u
        case .easeIn:
            return t * t * t
        case .easeInOut:
            return t < 0.5 ? 4 * t * t * t : 1 - pow3(-2 * t + 2) / 2
        case .backOut:
            let overshoot = 1.70158
            let u = t - 1
            return 1 + (overshoot + 1) * u * u * u + overshoot * u * u
        }
    }

    /// The progress from which the curve stays within `tolerance` of its
    /// end: an animation that far along looks finished, since nothing it
    /// still does shows. (`tolerance` is half a pixel over the distance.)
    public func settled(within tolerance: Double) -> Double {
        guard tolerance > 0 else { return 1 }
        guard tolerance < 1 else { return 0 }
        switch self {
        case .linear:
            return 1 - tolerance
        case .easeOut:
            return 1 - cbrt(tolerance)
        case .easeIn:
            return cbrt(1 - tolerance)
        case .easeInOut:
            return tolerance <= 0.5 ? 1 - cbrt(2 * tolerance) / 2 : cbrt((1 - tolerance) / 4)
        case .backOut:
            // It overshoots, turns at about 0.58 and comes back to 1 without
            // turning again: the last crossing into the band lies after the
            // turn, where the curve falls steadily.
            let overshoot = 1.70158
            let turn = 1 - 2 * overshoot / (3 * (overshoot + 1))
            return bisect(turn ... 1) { abs(self($0) - 1) <= tolerance }
        }
    }

    /// The progress at which a curve starting at rest has first gone
    /// `amount` of the way: before it, the motion does not show yet.
    public func reaching(_ amount: Double) -> Double {
        guard amount > 0 else { return 0 }
        guard amount < 1 else { return 1 }
        switch self {
        case .linear:
            return amount
        case .easeOut:
            return 1 - cbrt(1 - amount)
        case .easeIn:
            return cbrt(amount)
        case .easeInOut:
            return amount <= 0.5 ? cbrt(amount / 4) : 1 - cbrt(2 * (1 - amount)) / 2
        case .backOut:
            return bisect(0 ... 1) { self($0) >= amount }
        }
    }

    /// The smallest progress in `range` where `holds` is true, given that it
    /// is false below some point and true from there on.
    private func bisect(_ range: ClosedRange<Double>, _ holds: (Double) -> Bool) -> Double {
        var low = range.lowerBound
        var high = range.upperBound
        if holds(low) { return low }
        for _ in 0..<48 {
            let middle = (low + high) / 2
            if holds(middle) { high = middle } else { low = middle }
        }
        return high
    }

    private func pow3(_ x: Double) -> Double { x * x * x }
}

/// The real cube root (PerchCore imports no C library). Splits off the
/// binary exponent so that Newton's method starts within [1, 2).
func cbrt(_ x: Double) -> Double {
    guard x.isFinite, x != 0 else { return x }
    if x < 0 { return -cbrt(-x) }
    let exponent = Int(x.exponent)
    let third = exponent >= 0 ? exponent / 3 : -((-exponent + 2) / 3)
    let mantissa = Double(sign: .plus, exponent: exponent - 3 * third, significand: x.significand)
    var root = 1.5  // mantissa is in [1, 8): its root in [1, 2)
    for _ in 0..<6 { root = (2 * root + mantissa / (root * root)) / 3 }
    return Double(sign: .plus, exponent: third, significand: root)
}
