// Fuzz target: PerchBus's `BusMessageReader` over a Notify call as sd-bus
// hands it to the daemon: received from a socket, parsed and validated by
// libsystemd, read with the reader's non-variadic calls.
//
// Each input becomes one D-Bus message on the wire (written here: the
// header with path, interface, member and signature, then the body),
// sent over a socketpair to an sd-bus server connection (anonymous
// authentication) whose filter runs the reader on what arrives — the
// path a real message takes, so every check libsystemd makes on bytes
// from a peer is made here. The body is built from the input by a small
// interpreter: Notify's `susssasa{sv}i` with strings of any bytes, booleans
// of any value, and hints of every D-Bus type — basic ones, the image
// structure, and arrays, structures, dictionaries and variants nested up
// to four deep. One input in eight is sent instead as a raw body (the
// bytes after the first as they are, under Notify's signature or one
// from the input). Properties:
// - a message the interpreter knows is valid (strings of bytes 1...0x7F,
//   booleans 0 or 1, nesting within D-Bus's limits, Notify's signature)
//   is read; what is read is what was written, value for value: the
//   strings' bytes, the numbers (doubles bit for bit), the actions, the
//   hints in wire order with a basic value or the image read and any
//   other type reported by its signature; `BusNotify` made from it is the
//   one made from what was written;
// - any other message is read the same way or refused with an
//   InvalidArgs error that says what was being read — never a crash, and
//   never a value that was not sent.
// One input in eight is instead mako 1.10's DismissNotifications options,
// `a{sv}` read by `readMakoDismissOptions`: keys among `id`, `group`,
// `all`, `history` and others, values of every type. A valid message is
// read as the dismissal its known keys of the right types say, or refused
// (InvalidArgs naming the option) when a known key has another type;
// any other message is read or refused, never a crash.
// One input in sixteen is instead the Notification portal backend's
// AddNotification (`ssa{sv}`, `readPortalAdd`): keys mostly the portal's,
// values of their own types or any other, buttons and serialized icons
// and sounds among them. A valid message is read; what is read either
// becomes a `PortalNotification` or is refused with a message; one that
// is made posts a request whose action ids are unique, at most
// `NotificationLimits.maximumActions`, each with its route, and a
// target copied for each button that sent one. Any other message is
// read or refused (InvalidArgs saying what was read), never a crash.
import CSystemdBus
import Glibc
import PerchCore
@testable import PerchBus

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBus(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let mode = input.byte()
    if mode % 8 == 6 { return fuzzMakoOptions(input) }
    if mode % 16 == 13 { return fuzzPortal(input) }
    var message = WireMessage()
    var expected: ExpectedNotify?
    let signature: String
    if mode % 8 == 7 {
        // A signature's length is one byte on the wire: at most 255.
        signature = mode & 0x80 != 0 ? "susssasa{sv}i"
            : String(String.UnicodeScalarView(input.text().unicodeScalars.prefix(85)))
        message.body = input.rest()
        expected = nil
    } else {
        signature = "susssasa{sv}i"
        var writer = BodyWriter(input: input)
        expected = writer.writeNotify()
        message.body = writer.wire.bytes
    }
    let bytes = message.encoded(signature: signature)

    let outcome = deliver(bytes)
    switch outcome {
    case .notDelivered(let reason):
        require(expected?.sureValid != true, "a valid Notify call was not delivered: \(reason)")
    case .read(.failure(let error)):
        require(expected?.sureValid != true, "a valid Notify call was refused: \(error)")
        require(error.name == "org.freedesktop.DBus.Error.InvalidArgs" && error.message.contains("("),
                "a refusal that does not say what was read: \(error)")
    case .read(.success(let read)):
        guard let expected else { break }
        expected.check(read)
    }
    return 0
}

// MARK: - mako's options

private func fuzzMakoOptions(_ input: FuzzInput) -> CInt {
    var writer = BodyWriter(input: input)
    let expected = writer.writeMakoOptions()
    var message = WireMessage()
    message.body = writer.wire.bytes
    readingMako = true
    makoRead = nil
    defer { readingMako = false }
    let outcome = deliver(message.encoded(signature: "a{sv}"))
    guard case .notDelivered(let reason) = outcome else { return 0 }
    guard let read = makoRead else {
        require(!writer.sureValid, "valid options were not delivered: \(reason)")
        return 0
    }
    makoRead = nil
    switch (read, expected) {
    case (.success(let request), .some(let wanted)) where writer.sureValid:
        require(request == wanted, "options read as \(request), sent \(wanted)")
    case (.failure(let error), _):
        require(error.name == "org.freedesktop.DBus.Error.InvalidArgs" && error.message.contains("option"),
                "a refusal that does not name the options: \(error)")
        require(!writer.sureValid || expected == nil, "valid options were refused: \(error)")
    case (.success(let request), nil) where writer.sureValid:
        require(false, "options with a known key of another type were read as \(request)")
    default:
        break
    }
    return 0
}

// MARK: - The portal's AddNotification

private func fuzzPortal(_ input: FuzzInput) -> CInt {
    var writer = BodyWriter(input: input)
    let targets = writer.writePortalAdd()  // nil: not known
    var message = WireMessage()
    message.body = writer.wire.bytes
    readingPortal = true
    portalRead = nil
    defer { readingPortal = false }
    _ = deliver(message.encoded(signature: "ssa{sv}"))
    guard let read = portalRead else {
        require(!writer.sureValid, "a valid AddNotification was not delivered")
        return 0
    }
    portalRead = nil
    switch read {
    case .failure(let error):
        require(!writer.sureValid, "a valid AddNotification was refused: \(error)")
        require(error.name == "org.freedesktop.DBus.Error.InvalidArgs" && error.message.contains("("),
                "a refusal that does not say what was read: \(error)")
    case .success(let call):
        if writer.sureValid, let targets {
            require(call.targets.count == targets, "\(targets) targets sent, \(call.targets.count) copied")
        }
        guard let notification = try? PortalNotification(entries: call.entries) else { break }
        let posting = notification.posting(appID: call.appID, appName: nil)
        let ids = posting.request.actions.map(\.id)
        require(Set(ids).count == ids.count, "action ids repeat: \(ids)")
        require(ids.count <= NotificationLimits.maximumActions, "\(ids.count) actions")
        require(Set(posting.routes.keys) == Set(ids), "routes \(posting.routes.keys) for actions \(ids)")
        require(notification.diagnostics.count <= 8, "\(notification.diagnostics.count) diagnostics")
    }
    return 0
}

// MARK: - Delivery

private enum Outcome {
    case notDelivered(String)
    case read(Result<ReadNotify, BusError>)
}

/// What the reader read: `readNotify`'s result, and the hints as
/// `readHints` reads them (the message read again from its start).
private struct ReadNotify {
    var notify: BusNotify
    var appName: String, replacesID: UInt32, appIcon: String, summary: String, body: String
    var actions: [String]
    var hints: [(key: String, value: BusHintValue)]
    var expireTimeout: Int32
}

nonisolated(unsafe) private var delivered: Result<ReadNotify, BusError>?
/// The message is mako's options, read into `makoRead` (and reported as
/// not delivered to the Notify path).
nonisolated(unsafe) private var readingMako = false
nonisolated(unsafe) private var makoRead: Result<MakoRequest, BusError>?
/// The message is the portal's AddNotification, read into `portalRead`.
nonisolated(unsafe) private var readingPortal = false
nonisolated(unsafe) private var portalRead: Result<PortalAddCall, BusError>?

private let filter: sd_bus_message_handler_t = { message, _, _ in
    guard let message else { return 0 }
    let reader = BusMessageReader(message: message)
    if readingPortal {
        do throws(BusError) {
            portalRead = .success(try reader.readPortalAdd())
        } catch {
            portalRead = .failure(error)
        }
        return 1
    }
    if readingMako {
        do throws(BusError) {
            makoRead = .success(try reader.readMakoDismissOptions())
        } catch {
            makoRead = .failure(error)
        }
        return 1
    }
    do throws(BusError) {
        let notify = try reader.readNotify()
        require(sd_bus_message_rewind(message, 1) >= 0, "the message does not rewind")
        let read = ReadNotify(notify: notify, appName: try reader.readString(in: "the app_name"),
                              replacesID: try reader.readBasic("u", UInt32(0), in: "replaces_id"),
                              appIcon: try reader.readString(in: "the app_icon"),
                              summary: try reader.readString(in: "the summary"),
                              body: try reader.readString(in: "the body"), actions: try reader.readActions(),
                              hints: try reader.readHints(),
                              expireTimeout: try reader.readBasic("i", Int32(0), in: "expire_timeout"))
        delivered = .success(read)
    } catch {
        delivered = .failure(error)
    }
    // Handled: sd-bus sends no UnknownMethod reply.
    return 1
}

/// Sends `message` to a new sd-bus server connection and runs it until the
/// filter has seen a message or nothing more happens.
private func deliver(_ message: [UInt8]) -> Outcome {
    var fds: [Int32] = [-1, -1]
    guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0 else {
        return .notDelivered("socketpair: \(errno)")
    }
    defer { close(fds[1]) }
    var bus: OpaquePointer?
    require(sd_bus_new(&bus) >= 0, "sd_bus_new")
    defer { sd_bus_close(bus); sd_bus_unref(bus) }
    require(sd_bus_set_fd(bus, fds[0], fds[0]) >= 0, "sd_bus_set_fd")
    var id = sd_id128_t()
    id.bytes = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16)
    require(sd_bus_set_server(bus, 1, id) >= 0, "sd_bus_set_server")
    require(sd_bus_set_anonymous(bus, 1) >= 0, "sd_bus_set_anonymous")
    require(sd_bus_add_filter(bus, nil, filter, nil) >= 0, "sd_bus_add_filter")
    require(sd_bus_start(bus) >= 0, "sd_bus_start")

    // The client's side of the authentication, then the message. The
    // socket holds it all (a few KiB) before the server reads any of it.
    let handshake = [UInt8(0)] + Array("AUTH ANONYMOUS\r\nBEGIN\r\n".utf8)
    let all = handshake + message
    let written = all.withUnsafeBytes { send(fds[1], $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    guard written == all.count else { return .notDelivered("send: \(written)") }
    shutdown(fds[1], Int32(SHUT_WR))

    delivered = nil
    for _ in 0..<64 {
        let result = sd_bus_process(bus, nil)
        if delivered != nil || makoRead != nil || portalRead != nil || result <= 0 { break }
    }
    guard let result = delivered else { return .notDelivered("sd-bus delivered nothing") }
    delivered = nil
    return .read(result)
}

// MARK: - The wire

/// A method call on the wire, little-endian (D-Bus specification,
/// "Message Format").
private struct WireMessage {
    var body: [UInt8] = []

    func encoded(signature: String) -> [UInt8] {
        var wire = Wire()
        wire.bytes = [UInt8(ascii: "l"), 1, 0, 1]
        wire.uint32(UInt32(body.count))
        wire.uint32(1)  // serial
        let fields = wire.beginArray(alignment: 8)
        for (code, type, value) in [(UInt8(1), "o", "/org/freedesktop/Notifications"),
                                    (2, "s", "org.freedesktop.Notifications"), (3, "s", "Notify"),
                                    (8, "g", signature)] {
            wire.align(8)
            wire.byte(code)
            wire.signature(type)
            if type == "g" { wire.signature(value) } else { wire.string(value) }
        }
        wire.endArray(fields)
        wire.align(8)
        return wire.bytes + body
    }
}

/// D-Bus marshalling: every value aligned to its size from the message's
/// start (the body starts 8-aligned, so from the body's start too).
private struct Wire {
    var bytes: [UInt8] = []

    mutating func align(_ boundary: Int) {
        while bytes.count % boundary != 0 { bytes.append(0) }
    }
    mutating func byte(_ value: UInt8) { bytes.append(value) }
    mutating func integer<T: FixedWidthInteger>(_ value: T) {
        align(T.bitWidth / 8)
        withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
    }
    mutating func uint32(_ value: UInt32) { integer(value) }
    mutating func string(_ value: String) { stringBytes(Array(value.utf8)) }
    mutating func stringBytes(_ value: [UInt8]) {
        uint32(UInt32(value.count))
        bytes += value
        bytes.append(0)
    }
    mutating func signature(_ value: String) {
        bytes.append(UInt8(value.utf8.count))
        bytes += value.utf8
        bytes.append(0)
    }
    /// An array: its length (written by `endArray`), then the elements
    /// from their first alignment. Returns where the length and the
    /// elements are.
    mutating func beginArray(alignment: Int) -> (length: Int, start: Int) {
        align(4)
        let lengthAt = bytes.count
        uint32(0)
        align(alignment)
        return (lengthAt, bytes.count)
    }
    mutating func endArray(_ array: (length: Int, start: Int)) {
        let length = UInt32(bytes.count - array.start)
        withUnsafeBytes(of: length.littleEndian) {
            bytes.replaceSubrange(array.length..<array.length + 4, with: $0)
        }
    }
}

// MARK: - The interpreter

/// A D-Bus type, for hints other than the basic ones and the image.
private indirect enum WireType {
    case basic(Character)
    case array(WireType)
    case dictionary(Character, WireType)
    case structure([WireType])
    case variant

    var signature: String {
        switch self {
        case .basic(let code): String(code)
        case .array(let element): "a" + element.signature
        case .dictionary(let key, let value): "a{" + String(key) + value.signature + "}"
        case .structure(let fields): "(" + fields.map(\.signature).joined() + ")"
        case .variant: "v"
        }
    }

    var alignment: Int {
        switch self {
        case .basic(let code): basicAlignment(code)
        case .array: 4
        case .dictionary: 4
        case .structure: 8
        case .variant: 1
        }
    }
}

private let basicCodes: [Character] = ["y", "b", "n", "q", "i", "u", "x", "t", "d", "s", "o", "g"]

private func basicAlignment(_ code: Character) -> Int {
    switch code {
    case "y", "g": 1
    case "n", "q": 2
    case "x", "t", "d": 8
    default: 4
    }
}

/// What the interpreter wrote, to compare with what is read.
private struct ExpectedNotify {
    var appName: [UInt8], replacesID: UInt32, appIcon: [UInt8], summary: [UInt8], body: [UInt8]
    var actions: [[UInt8]]
    var hints: [(key: [UInt8], value: ExpectedValue)]
    var expireTimeout: Int32
    /// Every byte is one sd-bus must accept.
    var sureValid: Bool

    func check(_ read: ReadNotify) {
        require(Array(read.appName.utf8) == appName && Array(read.appIcon.utf8) == appIcon
                && Array(read.summary.utf8) == summary && Array(read.body.utf8) == body,
                "the strings read are not the ones sent")
        require(read.replacesID == replacesID && read.expireTimeout == expireTimeout, "the integers read differ")
        require(read.actions.map { Array($0.utf8) } == actions, "the actions read are not the ones sent")
        require(read.hints.count == hints.count, "\(read.hints.count) hints read, \(hints.count) sent")
        for (index, (hint, sent)) in zip(read.hints, hints).enumerated() {
            require(Array(hint.key.utf8) == sent.key, "hint \(index)'s key differs")
            require(sent.value.matches(hint.value), "hint \(index): \(hint.value) read, \(sent.value) sent")
        }
        let notify = read.notify
        require(notify.appName == read.appName && notify.summary == read.summary && notify.body == read.body
                && notify.appIcon == read.appIcon && notify.replacesID == replacesID,
                "readNotify read other strings than the reader's parts")
        let rebuilt = BusNotify(appName: read.appName, replacesID: read.replacesID, appIcon: read.appIcon,
                                summary: read.summary, body: read.body, actions: read.actions, hints: read.hints,
                                expireTimeout: read.expireTimeout)
        require(notify.actions == rebuilt.actions && notify.urgency == rebuilt.urgency
                && notify.category == rebuilt.category && notify.image == rebuilt.image
                && notify.value == rebuilt.value && notify.expireTimeout == rebuilt.expireTimeout
                && notify.diagnostics == rebuilt.diagnostics,
                "readNotify's BusNotify is not the one its parts make")
    }
}

private enum ExpectedValue: CustomStringConvertible {
    case integer(code: Character, bits: UInt64)
    case boolean(Bool)
    case double(UInt64)
    case string([UInt8])
    case image(width: Int32, height: Int32, rowstride: Int32, hasAlpha: Bool, bits: Int32, channels: Int32,
               data: [UInt8])
    case other(String)

    func matches(_ value: BusHintValue) -> Bool {
        switch (self, value) {
        case (.integer(let code, let bits), _):
            switch (code, value) {
            case ("y", .byte(let v)): return UInt64(v) == bits
            case ("n", .int16(let v)): return UInt64(UInt16(bitPattern: v)) == bits
            case ("q", .uint16(let v)): return UInt64(v) == bits
            case ("i", .int32(let v)): return UInt64(UInt32(bitPattern: v)) == bits
            case ("u", .uint32(let v)): return UInt64(v) == bits
            case ("x", .int64(let v)): return UInt64(bitPattern: v) == bits
            case ("t", .uint64(let v)): return v == bits
            default: return false
            }
        case (.boolean(let sent), .boolean(let read)): return sent == read
        case (.double(let sent), .double(let read)): return read.bitPattern == sent
        case (.string(let sent), .string(let read)): return Array(read.utf8) == sent
        case (.image(let w, let h, let stride, let alpha, let bits, let channels, let data), .image(let image)):
            return image == RawImage(width: Int(w), height: Int(h), rowstride: Int(stride), hasAlpha: alpha,
                                     bitsPerSample: Int(bits), channels: Int(channels), reading: data)
        case (.other(let sent), .other(let read)): return sent == read
        case (.other(let sent), .strings(let read)): return sent == "as" && read.count <= BusHintValue.stringsLimit
        default: return false
        }
    }

    var description: String {
        switch self {
        case .integer(let code, let bits): "\(code) \(bits)"
        case .boolean(let value): "b \(value)"
        case .double(let bits): "d \(bits)"
        case .string(let bytes): "s \(bytes)"
        case .image(let w, let h, _, _, _, _, let data): "image \(w)×\(h), \(data.count) bytes"
        case .other(let signature): "other \(signature)"
        }
    }
}

/// Writes Notify's body from the input, and says what it wrote.
private struct BodyWriter {
    var input: FuzzInput
    var wire = Wire()
    var sureValid = true

    init(input: FuzzInput) { self.input = input }

    mutating func writeNotify() -> ExpectedNotify {
        let appName = writeString()
        let replacesID: UInt32 = input.integer()
        wire.uint32(replacesID)
        let appIcon = writeString(), summary = writeString(), body = writeString()
        var actions: [[UInt8]] = []
        let actionCount = Int(input.byte() % 6)
        let actionArray = wire.beginArray(alignment: 4)
        for _ in 0..<actionCount { actions.append(writeString()) }
        wire.endArray(actionArray)
        var hints: [(key: [UInt8], value: ExpectedValue)] = []
        let hintCount = Int(input.byte() % 10)
        let hintArray = wire.beginArray(alignment: 8)
        for _ in 0..<hintCount {
            wire.align(8)
            let key = writeString()
            hints.append((key, writeVariant()))
        }
        wire.endArray(hintArray)
        let expireTimeout: Int32 = input.integer()
        wire.integer(expireTimeout)
        return ExpectedNotify(appName: appName, replacesID: replacesID, appIcon: appIcon, summary: summary,
                              body: body, actions: actions, hints: hints, expireTimeout: expireTimeout,
                              sureValid: sureValid)
    }

    /// mako 1.10's DismissNotifications options: up to 6 entries, keys
    /// mostly the four mako knows, values of any type (the right one more
    /// often than not). Returns the request they make when read as mako
    /// reads them; nil when a known key holds another type (refused).
    mutating func writeMakoOptions() -> MakoRequest? {
        let keys = ["id", "group", "all", "history"]
        var id: UInt32 = 0, group = false, all = false, history = true
        var refused = false
        let array = wire.beginArray(alignment: 8)
        for _ in 0..<Int(input.byte() % 7) {
            wire.align(8)
            let pick = Int(input.byte())
            let key: String
            if pick % 5 < 4 {
                key = keys[pick % 5]
                wire.string(key)
            } else {
                key = String(decoding: writeString(), as: UTF8.self)
            }
            let wanted: Character = key == "id" ? "u" : "b"
            let value = input.bool() ? writeTyped(wanted) : writeVariant()
            guard keys.contains(key) else { continue }
            switch (key, value) {
            case ("id", .integer("u", let bits)): id = UInt32(truncatingIfNeeded: bits)
            case ("group", .boolean(let on)): group = on
            case ("all", .boolean(let on)): all = on
            case ("history", .boolean(let on)): history = on
            default: refused = true
            }
        }
        wire.endArray(array)
        return refused ? nil : .dismiss(id: id, group: group, all: all, keepsHistory: history)
    }

    /// AddNotification's app_id, id and dictionary: up to 8 entries, keys
    /// mostly the portal's, values of their type more often than not;
    /// buttons of up to 3 entries each. Returns how many targets the
    /// reader keeps (one per button index that had one in any `buttons`,
    /// one for `default-action-target`), or nil when a value of a random
    /// type may hold buttons of its own.
    mutating func writePortalAdd() -> Int? {
        _ = writeString()
        _ = writeString()
        let keys = ["title", "body", "markup-body", "icon", "sound", "priority", "default-action",
                    "default-action-target", "buttons", "category", "display-hint"]
        var defaultTarget = false
        var buttonTargets = Set<Int>()
        var known = true
        let array = wire.beginArray(alignment: 8)
        for _ in 0..<Int(input.byte() % 9) {
            wire.align(8)
            let pick = Int(input.byte())
            let key = pick % 13 < keys.count ? keys[pick % 13] : String(decoding: writeKey(), as: UTF8.self)
            if pick % 13 < keys.count { wire.string(key) } else if keys.contains(key) { known = false }
            let typed = input.bool()
            switch key {
            case "buttons" where typed:
                buttonTargets.formUnion(writeButtons())
            case "buttons":
                _ = writeVariant()
                known = false
            case "icon" where typed, "sound" where typed:
                wire.signature("(sv)")
                wire.align(8)
                let tags = ["themed", "bytes", "file", key == "icon" ? "themed" : "default"]
                wire.string(tags[Int(input.byte()) % tags.count])
                _ = input.bool() ? writeTyped("s") : writeVariant()
            case "display-hint" where typed:
                wire.signature("as")
                let strings = wire.beginArray(alignment: 4)
                for _ in 0..<Int(input.byte() % 4) { _ = writeString() }
                wire.endArray(strings)
            case "default-action-target":
                _ = writeVariant()
                defaultTarget = true
            default:
                _ = typed ? writeTyped("s") : writeVariant()
            }
        }
        wire.endArray(array)
        return known ? buttonTargets.count + (defaultTarget ? 1 : 0) : nil
    }

    /// A key that is (almost always) none of the portal's.
    private mutating func writeKey() -> [UInt8] { writeString() }

    /// `aa{sv}` buttons; returns the indices of those with a target.
    private mutating func writeButtons() -> Set<Int> {
        wire.signature("aa{sv}")
        let buttons = wire.beginArray(alignment: 8)
        var targets = Set<Int>()
        for index in 0..<Int(input.byte() % 4) {
            let entries = wire.beginArray(alignment: 8)
            var hasTarget = false
            for _ in 0..<Int(input.byte() % 4) {
                wire.align(8)
                let keys = ["label", "action", "purpose", "target"]
                let key = keys[Int(input.byte()) % keys.count]
                wire.string(key)
                if key == "target" {
                    _ = writeVariant()
                    hasTarget = true
                } else {
                    _ = input.bool() ? writeTyped("s") : writeVariant()
                }
            }
            wire.endArray(entries)
            if hasTarget { targets.insert(index) }
        }
        wire.endArray(buttons)
        return targets
    }

    /// A variant holding a value of `code`.
    mutating func writeTyped(_ code: Character) -> ExpectedValue {
        wire.signature(String(code))
        return writeBasic(code)
    }

    /// A string of up to 31 bytes from the input. Bytes outside 1...0x7F
    /// (a NUL, a byte of a multi-byte character, valid or not) make the
    /// message one sd-bus may refuse: it requires UTF-8 without NUL and
    /// without the noncharacters, a stricter rule than Swift's.
    mutating func writeString() -> [UInt8] {
        let length = Int(input.byte() % 32)
        var bytes: [UInt8] = []
        for _ in 0..<length where !input.isAtEnd { bytes.append(input.byte()) }
        if bytes.contains(where: { $0 == 0 || $0 >= 0x80 }) { sureValid = false }
        wire.stringBytes(bytes)
        return bytes
    }

    /// One hint's variant: its signature, then its value.
    mutating func writeVariant() -> ExpectedValue {
        let choice = Int(input.byte())
        switch choice % 16 {
        case 0..<12:
            let code = basicCodes[choice % 16]
            wire.signature(String(code))
            return writeBasic(code)
        case 12, 13:
            wire.signature("(iiibiiay)")
            wire.align(8)
            let mask: Int32 = input.bool() ? -1 : 0x3F
            let width = input.integer(Int32.self) & mask, height = input.integer(Int32.self) & mask
            let rowstride = input.integer(Int32.self) & (mask | 0xFF)
            let alpha = input.byte()
            let bits: Int32 = input.bool() ? 8 : input.integer(), channels: Int32 = input.bool() ? 4 : input.integer()
            wire.integer(width)
            wire.integer(height)
            wire.integer(rowstride)
            wire.uint32(UInt32(alpha & 3))
            if alpha & 3 > 1 { sureValid = false }
            wire.integer(bits)
            wire.integer(channels)
            let count = Int(input.integer(UInt16.self) % 2048)
            var data: [UInt8] = []
            for _ in 0..<count where !input.isAtEnd { data.append(input.byte()) }
            let array = wire.beginArray(alignment: 1)
            wire.bytes += data
            wire.endArray(array)
            return .image(width: width, height: height, rowstride: rowstride, hasAlpha: alpha & 3 != 0,
                          bits: bits, channels: channels, data: data)
        default:
            let type = makeType(depth: 0)
            // A basic type is read as one, whatever made it.
            if case .basic(let code) = type {
                wire.signature(String(code))
                return writeBasic(code)
            }
            wire.signature(type.signature)
            writeValue(type, depth: 0)
            return .other(type.signature)
        }
    }

    mutating func writeBasic(_ code: Character) -> ExpectedValue {
        switch code {
        case "y":
            let value = input.byte()
            wire.byte(value)
            return .integer(code: code, bits: UInt64(value))
        case "b":
            // Only 0 and 1 are booleans on the wire.
            let raw = input.byte()
            let value = UInt32(raw & 0x80 != 0 ? raw : raw & 1)
            if value > 1 { sureValid = false }
            wire.uint32(value)
            return .boolean(value != 0)
        case "n", "q":
            let value: UInt16 = input.integer()
            wire.integer(value)
            return .integer(code: code, bits: UInt64(value))
        case "i", "u":
            let value: UInt32 = input.integer()
            wire.integer(value)
            return .integer(code: code, bits: UInt64(value))
        case "x", "t":
            let value: UInt64 = input.integer()
            wire.integer(value)
            return .integer(code: code, bits: value)
        case "d":
            let value: UInt64 = input.integer()
            wire.integer(value)
            return .double(value)
        case "s":
            return .string(writeString())
        case "o":
            let paths = ["/", "/org/freedesktop", "/a_b/C9"]
            let path = input.byte()
            if path < 0xF0 {
                wire.string(paths[Int(path) % paths.count])
                return .string(Array(paths[Int(path) % paths.count].utf8))
            }
            // Any bytes: most are not an object path, which sd-bus refuses.
            sureValid = false
            return .string(writeString())
        default:
            let signatures = ["", "s", "a{sv}", "(iiibiiay)"]
            let signature = signatures[Int(input.byte()) % signatures.count]
            wire.signature(signature)
            return .string(Array(signature.utf8))
        }
    }

    /// A container type, nested at most four deep (D-Bus allows 32 of each).
    mutating func makeType(depth: Int) -> WireType {
        let choice = Int(input.byte())
        if depth >= 4 { return .basic(basicCodes[choice % basicCodes.count]) }
        switch choice % 5 {
        case 0: return .array(makeType(depth: depth + 1))
        case 1:
            let key = basicCodes[Int(input.byte()) % basicCodes.count]
            return .dictionary(key, makeType(depth: depth + 1))
        case 2:
            let count = 1 + Int(input.byte() % 3)
            return .structure((0..<count).map { _ in makeType(depth: depth + 1) })
        case 3: return .variant
        default: return .basic(basicCodes[choice % basicCodes.count])
        }
    }

    mutating func writeValue(_ type: WireType, depth: Int) {
        switch type {
        case .basic(let code):
            _ = writeBasic(code)
        case .array(let element):
            let count = Int(input.byte() % 4)
            let array = wire.beginArray(alignment: element.alignment)
            for _ in 0..<count { writeValue(element, depth: depth + 1) }
            wire.endArray(array)
        case .dictionary(let key, let value):
            let count = Int(input.byte() % 3)
            let array = wire.beginArray(alignment: 8)
            for _ in 0..<count {
                wire.align(8)
                _ = writeBasic(key)
                writeValue(value, depth: depth + 1)
            }
            wire.endArray(array)
        case .structure(let fields):
            wire.align(8)
            for field in fields { writeValue(field, depth: depth + 1) }
        case .variant:
            let inner = depth >= 4 ? WireType.basic(basicCodes[Int(input.byte()) % basicCodes.count])
                : makeType(depth: depth + 1)
            wire.signature(inner.signature)
            writeValue(inner, depth: depth + 1)
        }
    }
}
