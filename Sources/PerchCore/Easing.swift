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

    private func pow3(_ x: Double) -> Double { x * x * x }
}
