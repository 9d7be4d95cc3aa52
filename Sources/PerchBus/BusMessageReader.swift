import CSystemdBus
import Glibc
import PerchCore

/// Reads the arguments of a received message with sd-bus's non-variadic
/// calls. sd-bus has already checked the signature against the vtable; a
/// read still fails (negative errno) when the bytes behind it are bad, for
/// instance a string that is not UTF-8 (-EBADMSG), and that surfaces as an
/// InvalidArgs error reply.
struct BusMessageReader {
    /// sd_bus_message *, borrowed for the duration of a method handler.
    let message: OpaquePointer

    /// Notify's `susssasa{sv}i`.
    func readNotify() throws(BusError) -> BusNotify {
        let appName = try readString()
        let replacesID = try readBasic("u", UInt32(0))
        let appIcon = try readString()
        let summary = try readString()
        let body = try readString()
        let actions = try readStringArray()
        let hints = try readHints()
        let expireTimeout = try readBasic("i", Int32(0))
        let sender = sd_bus_message_get_sender(message).map { String(cString: $0) }
        return BusNotify(appName: appName, replacesID: replacesID, appIcon: appIcon, summary: summary,
                             body: body, actions: actions, hints: hints, expireTimeout: expireTimeout,
                             sender: sender)
    }

    func readBasic<Value>(_ type: Unicode.Scalar, _ initial: Value) throws(BusError) -> Value {
        var value = initial
        let result = withUnsafeMutablePointer(to: &value) { sd_bus_message_read_basic(message, code(type), $0) }
        try check(result, "reading a value of type \(type)")
        return value
    }

    /// A string, object path or signature ('s', 'o', 'g').
    func readString(_ type: Unicode.Scalar = "s") throws(BusError) -> String {
        var pointer: UnsafePointer<CChar>?
        let result = sd_bus_message_read_basic(message, code(type), &pointer)
        try check(result, "reading a string")
        // sd-bus validated it as UTF-8 already; this only avoids trusting it.
        guard let pointer, let text = String(validatingCString: pointer) else {
            throw .invalidArgs("a string argument is not valid UTF-8")
        }
        return text
    }

    func readStringArray() throws(BusError) -> [String] {
        try check(sd_bus_message_enter_container(message, code("a"), "s"), "reading actions")
        var strings: [String] = []
        while true {
            var pointer: UnsafePointer<CChar>?
            let result = sd_bus_message_read_basic(message, code("s"), &pointer)
            try check(result, "reading actions")
            guard result > 0 else { break }
            guard let pointer, let text = String(validatingCString: pointer) else {
                throw .invalidArgs("an action string is not valid UTF-8")
            }
            strings.append(text)
        }
        try check(sd_bus_message_exit_container(message), "reading actions")
        return strings
    }

    /// `a{sv}`, in wire order (a key sent twice appears twice).
    func readHints() throws(BusError) -> [(key: String, value: BusHintValue)] {
        try check(sd_bus_message_enter_container(message, code("a"), "{sv}"), "reading hints")
        var hints: [(key: String, value: BusHintValue)] = []
        while true {
            let entered = sd_bus_message_enter_container(message, code("e"), "sv")
            try check(entered, "reading hints")
            guard entered > 0 else { break }
            let key = try readString()
            hints.append((key, try readVariant()))
            try check(sd_bus_message_exit_container(message), "reading hints")
        }
        try check(sd_bus_message_exit_container(message), "reading hints")
        return hints
    }

    /// One variant: basic types and the image structure are read, anything
    /// else is skipped whole.
    private func readVariant() throws(BusError) -> BusHintValue {
        var type: CChar = 0
        var contents: UnsafePointer<CChar>?
        try check(sd_bus_message_peek_type(message, &type, &contents), "reading a hint")
        guard let contents else { throw .invalidArgs("a hint is not a variant") }
        let signature = String(cString: contents)
        let value: BusHintValue
        switch signature {
        case "y", "b", "n", "q", "i", "u", "x", "t", "d", "s", "o", "g":
            try check(sd_bus_message_enter_container(message, code("v"), contents), "reading a hint")
            value = try readBasicValue(signature)
            try check(sd_bus_message_exit_container(message), "reading a hint")
        case "(iiibiiay)":
            try check(sd_bus_message_enter_container(message, code("v"), contents), "reading image data")
            value = .image(try readImage())
            try check(sd_bus_message_exit_container(message), "reading image data")
        default:
            try check(sd_bus_message_skip(message, "v"), "skipping a hint")
            value = .other(signature: signature)
        }
        return value
    }

    private func readBasicValue(_ signature: String) throws(BusError) -> BusHintValue {
        switch signature {
        case "y": return .byte(try readBasic("y", UInt8(0)))
        // sd-bus reads a boolean into a C int.
        case "b": return .boolean(try readBasic("b", Int32(0)) != 0)
        case "n": return .int16(try readBasic("n", Int16(0)))
        case "q": return .uint16(try readBasic("q", UInt16(0)))
        case "i": return .int32(try readBasic("i", Int32(0)))
        case "u": return .uint32(try readBasic("u", UInt32(0)))
        case "x": return .int64(try readBasic("x", Int64(0)))
        case "t": return .uint64(try readBasic("t", UInt64(0)))
        case "d": return .double(try readBasic("d", Double(0)))
        default: return .string(try readString(signature.unicodeScalars.first!))
        }
    }

    /// `(iiibiiay)`: width, height, rowstride, has_alpha, bits_per_sample,
    /// channels, data. What is checked is `RawImage.problem`'s.
    private func readImage() throws(BusError) -> RawImage {
        try check(sd_bus_message_enter_container(message, code("r"), "iiibiiay"), "reading image data")
        let width = try readBasic("i", Int32(0))
        let height = try readBasic("i", Int32(0))
        let rowstride = try readBasic("i", Int32(0))
        let hasAlpha = try readBasic("b", Int32(0)) != 0
        let bitsPerSample = try readBasic("i", Int32(0))
        let channels = try readBasic("i", Int32(0))
        var bytes: UnsafeRawPointer?
        var size = 0
        try check(sd_bus_message_read_array(message, code("y"), &bytes, &size), "reading image data")
        // The pointer is into the message, which dies after the handler:
        // the pixels are read from there into the one copy kept.
        let image = RawImage(width: Int(width), height: Int(height), rowstride: Int(rowstride), hasAlpha: hasAlpha,
                             bitsPerSample: Int(bitsPerSample), channels: Int(channels),
                             reading: UnsafeRawBufferPointer(start: bytes, count: bytes == nil ? 0 : size))
        try check(sd_bus_message_exit_container(message), "reading image data")
        return image
    }

    /// `operation` is only made when the read failed: a Notify checks
    /// dozens of reads, and each message built for nothing cost more than
    /// the read.
    private func check(_ result: Int32, _ operation: @autoclosure () -> String) throws(BusError) {
        if result < 0 {
            throw .invalidArgs("malformed arguments (\(operation())): \(errorText(-result))")
        }
    }
}

/// A D-Bus type code as sd-bus's `char` parameters take it.
func code(_ type: Unicode.Scalar) -> CChar {
    CChar(bitPattern: UInt8(ascii: type))
}

/// strerror(3) for a positive errno.
func errorText(_ code: Int32) -> String {
    String(cString: strerror(code))
}
