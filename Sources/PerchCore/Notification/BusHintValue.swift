/// One value of the Notify `hints` dictionary (`a{sv}`), as read off the
/// wire before anything is decided about it: the variant's type is kept so
/// a hint of the wrong type can be named in a diagnostic and ignored.
public enum BusHintValue: Equatable, Sendable {
    case byte(UInt8)
    case boolean(Bool)
    case int16(Int16)
    case uint16(UInt16)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    /// A string, object path or type signature.
    case string(String)
    /// A `(iiibiiay)` structure: the layout of `image-data`.
    case image(RawImage)
    /// An array of strings (`as`): KDE's `x-kde-urls`. At most
    /// `BusHintValue.stringsLimit` are kept, the rest skipped unread.
    case strings([String])
    /// Any other type, skipped unread; `signature` is its D-Bus signature.
    case other(signature: String)

    /// The value of any integer type (spec: `urgency` is a byte and `value`
    /// an int32, but senders are not consistent about integer widths).
    public var integer: Int64? {
        switch self {
        case .byte(let value): Int64(value)
        case .int16(let value): Int64(value)
        case .uint16(let value): Int64(value)
        case .int32(let value): Int64(value)
        case .uint32(let value): Int64(value)
        case .int64(let value): value
        case .uint64(let value): value <= UInt64(Int64.max) ? Int64(value) : nil
        case .boolean, .double, .string, .image, .strings, .other: nil
        }
    }

    /// The most strings of an `as` hint that are read: a sender attaches
    /// a few files, never thousands.
    public static let stringsLimit = 32

    /// The D-Bus signature of the value, for diagnostics.
    public var signature: String {
        switch self {
        case .byte: "y"
        case .boolean: "b"
        case .int16: "n"
        case .uint16: "q"
        case .int32: "i"
        case .uint32: "u"
        case .int64: "x"
        case .uint64: "t"
        case .double: "d"
        case .string: "s"
        case .image: "(iiibiiay)"
        case .strings: "as"
        case .other(let signature): signature
        }
    }
}
