/// A value in a D-Bus variant, as dunst's interface answers with them
/// (the entries of NotificationListHistory and RuleList).
public enum BusValue: Equatable, Sendable {
    case string(String)
    case bool(Bool)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)

    /// Its D-Bus type signature.
    var signature: String {
        switch self {
        case .string: "s"
        case .bool: "b"
        case .int32: "i"
        case .uint32: "u"
        case .int64: "x"
        }
    }
}
