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

    public func callAsFunction(_ progress: Double) -> Double {
        let t = min(1, max(0, progress))
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
        }
    }

    private func pow3(_ x: Double) -> Double { x * x * x }
}
