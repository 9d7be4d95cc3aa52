import CSystemdBus
import Glibc
import PerchCore

/// Reads the arguments of a received message with sd-bus's non-variadic
/// calls. sd-bus has already checked the signature against the vtable; a
/// read still fails (negative errno) when the bytes behind it are bad, and
/// that surfaces as an InvalidArgs error reply naming the argument (by the
/// specification's names: `summary`, `actions[2]`, the value of a hint).
///
/// The one failure a well-behaved client meets is a string sd-bus refuses
/// as UTF-8 (-EBADMSG) although the D-Bus specification allows it: sd-bus's
/// UTF-8 check also refuses Unicode noncharacters (U+FDD0–U+FDEF, and
/// U+FFFE and U+FFFF of every plane), which dbus-daemon forwards and
/// python-dbus and GLib send. The refusal is libsystemd's own (252 and 257
/// alike), the bad string cannot be seen through sd-bus, and a read that
/// failed cannot be skipped (a skip checks the string too), so the call is
/// refused whole with an error that says which argument and why.
struct BusMessageReader {
    /// sd_bus_message *, borrowed for the duration of a method handler.
    let message: OpaquePointer

    /// Notify's `susssasa{sv}i`.
    func readNotify() throws(BusError) -> BusNotify {
        let appName = try readString(in: "the app_name")
        let replacesID = try readBasic("u", UInt32(0), in: "replaces_id")
        let appIcon = try readString(in: "the app_icon")
        let summary = try readString(in: "the summary")
        let body = try readString(in: "the body")
        let actions = try readActions()
        let hints = try readHints()
        let expireTimeout = try readBasic("i", Int32(0), in: "expire_timeout")
        let sender = sd_bus_message_get_sender(message).map { String(cString: $0) }
        return BusNotify(appName: appName, replacesID: replacesID, appIcon: appIcon, summary: summary,
                             body: body, actions: actions, hints: hints, expireTimeout: expireTimeout,
                             sender: sender)
    }

    /// A value of a fixed-size type; `argument` names it if the read fails.
    func readBasic<Value>(_ type: Unicode.Scalar, _ initial: Value,
                          in argument: @autoclosure () -> String) throws(BusError) -> Value {
        var value = initial
        let result = withUnsafeMutablePointer(to: &value) { sd_bus_message_read_basic(message, code(type), $0) }
        try check(result, reading: argument())
        return value
    }

    /// A string, object path or signature ('s', 'o', 'g'); `argument`
    /// names it if the read fails.
    func readString(_ type: Unicode.Scalar = "s", in argument: @autoclosure () -> String) throws(BusError) -> String {
        var pointer: UnsafePointer<CChar>?
        let result = sd_bus_message_read_basic(message, code(type), &pointer)
        if result == -EBADMSG, type == "s" { throw Self.unreadableText(argument()) }
        try check(result, reading: argument())
        // sd-bus validated it as UTF-8 already; this only avoids trusting it.
        guard let pointer, let text = String(validatingCString: pointer) else {
            throw Self.unreadableText(argument())
        }
        return text
    }

    /// `as`, each element named by its place: identifiers at even places,
    /// labels at odd ones.
    func readActions() throws(BusError) -> [String] {
        try check(sd_bus_message_enter_container(message, code("a"), "s"), reading: "actions")
        var strings: [String] = []
        while true {
            let index = strings.count
            var pointer: UnsafePointer<CChar>?
            let result = sd_bus_message_read_basic(message, code("s"), &pointer)
            if result == -EBADMSG { throw Self.unreadableText(Self.action(at: index)) }
            try check(result, reading: Self.action(at: index))
            guard result > 0 else { break }
            guard let pointer, let text = String(validatingCString: pointer) else {
                throw Self.unreadableText(Self.action(at: index))
            }
            strings.append(text)
        }
        try check(sd_bus_message_exit_container(message), reading: "actions")
        return strings
    }

    /// `a{sv}`, in wire order (a key sent twice appears twice).
    func readHints() throws(BusError) -> [(key: String, value: BusHintValue)] {
        try check(sd_bus_message_enter_container(message, code("a"), "{sv}"), reading: "hints")
        var hints: [(key: String, value: BusHintValue)] = []
        while true {
            let entered = sd_bus_message_enter_container(message, code("e"), "sv")
            try check(entered, reading: "hints")
            guard entered > 0 else { break }
            let index = hints.count
            let key = try readString(in: "the key of hint \(index + 1)")
            hints.append((key, try readVariant(of: key)))
            try check(sd_bus_message_exit_container(message), reading: "hints")
        }
        try check(sd_bus_message_exit_container(message), reading: "hints")
        return hints
    }

    /// One variant: basic types and the image structure are read, anything
    /// else is skipped whole.
    private func readVariant(of key: String) throws(BusError) -> BusHintValue {
        var type: CChar = 0
        var contents: UnsafePointer<CChar>?
        try check(sd_bus_message_peek_type(message, &type, &contents), reading: Self.hint(key))
        guard let contents else { throw .invalidArgs("the value of hint \(Self.quoted(key)) is not a variant") }
        let signature = String(cString: contents)
        let value: BusHintValue
        switch signature {
        case "y", "b", "n", "q", "i", "u", "x", "t", "d", "s", "o", "g":
            try check(sd_bus_message_enter_container(message, code("v"), contents), reading: Self.hint(key))
            value = try readBasicValue(signature, of: key)
            try check(sd_bus_message_exit_container(message), reading: Self.hint(key))
        case "as":
            try check(sd_bus_message_enter_container(message, code("v"), contents), reading: Self.hint(key))
            value = .strings(try readStrings(of: key))
            try check(sd_bus_message_exit_container(message), reading: Self.hint(key))
        case "(iiibiiay)":
            try check(sd_bus_message_enter_container(message, code("v"), contents), reading: Self.hint(key))
            value = .image(try readImage(of: key))
            try check(sd_bus_message_exit_container(message), reading: Self.hint(key))
        default:
            try check(sd_bus_message_skip(message, "v"), reading: Self.hint(key))
            value = .other(signature: signature)
        }
        return value
    }

    private func readBasicValue(_ signature: String, of key: String) throws(BusError) -> BusHintValue {
        switch signature {
        case "y": return .byte(try readBasic("y", UInt8(0), in: Self.hint(key)))
        // sd-bus reads a boolean into a C int.
        case "b": return .boolean(try readBasic("b", Int32(0), in: Self.hint(key)) != 0)
        case "n": return .int16(try readBasic("n", Int16(0), in: Self.hint(key)))
        case "q": return .uint16(try readBasic("q", UInt16(0), in: Self.hint(key)))
        case "i": return .int32(try readBasic("i", Int32(0), in: Self.hint(key)))
        case "u": return .uint32(try readBasic("u", UInt32(0), in: Self.hint(key)))
        case "x": return .int64(try readBasic("x", Int64(0), in: Self.hint(key)))
        case "t": return .uint64(try readBasic("t", UInt64(0), in: Self.hint(key)))
        case "d": return .double(try readBasic("d", Double(0), in: Self.hint(key)))
        default: return .string(try readString(signature.unicodeScalars.first!, in: Self.hint(key)))
        }
    }

    /// `as`: its first `BusHintValue.stringsLimit` strings; the rest are
    /// skipped (read by sd-bus, which checks them, but not kept).
    private func readStrings(of key: String) throws(BusError) -> [String] {
        try check(sd_bus_message_enter_container(message, code("a"), "s"), reading: Self.hint(key))
        var strings: [String] = []
        while true {
            var pointer: UnsafePointer<CChar>?
            let result = sd_bus_message_read_basic(message, code("s"), &pointer)
            if result == -EBADMSG { throw Self.unreadableText(Self.hint(key)) }
            try check(result, reading: Self.hint(key))
            guard result > 0 else { break }
            guard strings.count < BusHintValue.stringsLimit else { continue }
            guard let pointer, let text = String(validatingCString: pointer) else {
                throw Self.unreadableText(Self.hint(key))
            }
            strings.append(text)
        }
        try check(sd_bus_message_exit_container(message), reading: Self.hint(key))
        return strings
    }

    /// `(iiibiiay)`: width, height, rowstride, has_alpha, bits_per_sample,
    /// channels, data. What is checked is `RawImage.problem`'s.
    private func readImage(of key: String) throws(BusError) -> RawImage {
        try check(sd_bus_message_enter_container(message, code("r"), "iiibiiay"), reading: Self.hint(key))
        let width = try readBasic("i", Int32(0), in: Self.hint(key))
        let height = try readBasic("i", Int32(0), in: Self.hint(key))
        let rowstride = try readBasic("i", Int32(0), in: Self.hint(key))
        let hasAlpha = try readBasic("b", Int32(0), in: Self.hint(key)) != 0
        let bitsPerSample = try readBasic("i", Int32(0), in: Self.hint(key))
        let channels = try readBasic("i", Int32(0), in: Self.hint(key))
        var bytes: UnsafeRawPointer?
        var size = 0
        try check(sd_bus_message_read_array(message, code("y"), &bytes, &size), reading: Self.hint(key))
        // The pointer is into the message, which dies after the handler:
        // the pixels are read from there into the one copy kept.
        let image = RawImage(width: Int(width), height: Int(height), rowstride: Int(rowstride), hasAlpha: hasAlpha,
                             bitsPerSample: Int(bitsPerSample), channels: Int(channels),
                             reading: UnsafeRawBufferPointer(start: bytes, count: bytes == nil ? 0 : size))
        try check(sd_bus_message_exit_container(message), reading: Self.hint(key))
        return image
    }

    /// `argument` is only made when the read failed: a Notify checks
    /// dozens of reads, and each message built for nothing cost more than
    /// the read.
    private func check(_ result: Int32, reading argument: @autoclosure () -> String) throws(BusError) {
        if result < 0 {
            throw .invalidArgs("malformed arguments (reading \(argument())): \(errorText(-result))")
        }
    }

    // MARK: Naming what failed

    /// The error for a string sd-bus would not hand over. What it holds
    /// cannot be known here; what can be said is which argument, and the
    /// two things sd-bus refuses: noncharacters (the only ones a bus that
    /// checks strings, as dbus-daemon does, lets through) and bytes that
    /// are not UTF-8 (which dbus-broker, checking no bodies, would pass).
    static func unreadableText(_ argument: String) -> BusError {
        .invalidArgs("\(argument) holds a Unicode noncharacter (U+FDD0 to U+FDEF, or U+FFFE or U+FFFF of any "
            + "plane) or bytes that are not UTF-8, which this server cannot read: sd-bus, its D-Bus library, "
            + "refuses such strings, though the D-Bus specification allows noncharacters; nothing was posted")
    }

    /// The element of `actions` at `index` (from 0), by the specification's
    /// pairs: an identifier, then its label.
    static func action(at index: Int) -> String {
        "actions[\(index)] (the \(index.isMultiple(of: 2) ? "identifier" : "label") of action \(index / 2 + 1))"
    }

    static func hint(_ key: String) -> String { "the value of hint \(quoted(key))" }

    /// A hint's key for a message: quoted with its control characters
    /// escaped, and cut at 64 characters (a key may be a megabyte).
    static func quoted(_ key: String) -> String {
        key.count > 64 ? String(key.prefix(64)).debugDescription.dropLast() + "…\"" : key.debugDescription
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
