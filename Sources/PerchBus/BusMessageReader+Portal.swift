import CSystemdBus
import Glibc
import PerchCore

/// An AddNotification call as read: the pair that names it, its
/// dictionary, and the targets of its actions, copied to be sent back.
struct PortalAddCall {
    var appID: String
    var id: String
    var entries: [PortalEntry]
    var targets: [PortalActionRoute.Target: BusVariant]
}

extension BusMessageReader {
    /// The most bytes read from an icon's or a sound's file descriptor or
    /// `ay` (the largest icon file `IconDecoder` takes).
    static let portalFileBytes = 16 << 20
    /// The most names of a themed icon, buttons, and entries of one
    /// dictionary that are read; more is refused.
    static let portalListLimit = 64

    /// AddNotification's `ssa{sv}`.
    func readPortalAdd() throws(BusError) -> PortalAddCall {
        let appID = try readString(in: "the app_id")
        let id = try readString(in: "the id")
        var targets: [PortalActionRoute.Target: BusVariant] = [:]
        let entries = try readPortalDictionary(path: "notification", depth: 0, button: nil, targets: &targets)
        return PortalAddCall(appID: appID, id: id, entries: entries, targets: targets)
    }

    /// An `a{sv}`: at the top (`button` nil) or a button's (`button` its
    /// index). The targets are copied rather than read.
    private func readPortalDictionary(path: String, depth: Int, button: Int?,
                                      targets: inout [PortalActionRoute.Target: BusVariant])
        throws(BusError) -> [PortalEntry]
    {
        try check(sd_bus_message_enter_container(message, code("a"), "{sv}"), path)
        var entries: [PortalEntry] = []
        while true {
            let entered = sd_bus_message_enter_container(message, code("e"), "sv")
            try check(entered, path)
            guard entered > 0 else { break }
            guard entries.count < Self.portalListLimit else {
                throw .invalidArgs("\(path) has more than \(Self.portalListLimit) entries")
            }
            let key = try readString(in: "a key of \(path)")
            let target: PortalActionRoute.Target? = switch (key, button) {
            case ("default-action-target", nil): .defaultAction
            case ("target", let index?): .button(index)
            default: nil
            }
            if let target {
                var type: CChar = 0
                var contents: UnsafePointer<CChar>?
                try check(sd_bus_message_peek_type(message, &type, &contents), "\(path).\(key)")
                let signature = contents.map { String(cString: $0) } ?? "?"
                guard let copy = BusVariant(copyingFrom: message) else {
                    throw .invalidArgs("malformed arguments (reading \(path).\(key)): the value cannot be copied")
                }
                targets[target] = copy
                entries.append(PortalEntry(key, .other(signature: signature)))
            } else {
                entries.append(PortalEntry(key, try readPortalVariant(path: "\(path).\(key)", depth: depth,
                                                                      targets: &targets)))
            }
            try check(sd_bus_message_exit_container(message), path)
        }
        try check(sd_bus_message_exit_container(message), path)
        return entries
    }

    /// One variant, of the types the portal's keys use; others skipped.
    private func readPortalVariant(path: String, depth: Int,
                                   targets: inout [PortalActionRoute.Target: BusVariant]) throws(BusError)
        -> PortalValue
    {
        var type: CChar = 0
        var contents: UnsafePointer<CChar>?
        try check(sd_bus_message_peek_type(message, &type, &contents), path)
        guard let contents else { throw .invalidArgs("\(path) is not a variant") }
        let signature = String(cString: contents)
        let value: PortalValue
        switch signature {
        case "s", "as", "ay", "h", "(sv)":
            try check(sd_bus_message_enter_container(message, code("v"), contents), path)
            value = try readPortalContents(signature, path: path, depth: depth, targets: &targets)
            try check(sd_bus_message_exit_container(message), path)
        case "aa{sv}" where depth == 0:
            try check(sd_bus_message_enter_container(message, code("v"), contents), path)
            try check(sd_bus_message_enter_container(message, code("a"), "a{sv}"), path)
            var list: [[PortalEntry]] = []
            while true {
                var next: CChar = 0
                let more = sd_bus_message_peek_type(message, &next, nil)
                try check(more, path)
                guard more > 0 else { break }
                guard list.count < Self.portalListLimit else {
                    throw .invalidArgs("\(path) has more than \(Self.portalListLimit) elements")
                }
                list.append(try readPortalDictionary(path: "\(path)[\(list.count)]", depth: depth + 1,
                                                     button: list.count, targets: &targets))
            }
            try check(sd_bus_message_exit_container(message), path)
            try check(sd_bus_message_exit_container(message), path)
            value = .dictionaries(list)
        default:
            try check(sd_bus_message_skip(message, "v"), path)
            value = .other(signature: signature)
        }
        return value
    }

    private func readPortalContents(_ signature: String, path: String, depth: Int,
                                    targets: inout [PortalActionRoute.Target: BusVariant]) throws(BusError)
        -> PortalValue
    {
        switch signature {
        case "s":
            return .string(try readString(in: path))
        case "as":
            try check(sd_bus_message_enter_container(message, code("a"), "s"), path)
            var strings: [String] = []
            while true {
                var pointer: UnsafePointer<CChar>?
                let result = sd_bus_message_read_basic(message, code("s"), &pointer)
                if result == -EBADMSG { throw Self.unreadableText(path) }
                try check(result, path)
                guard result > 0, let pointer else { break }
                guard strings.count < Self.portalListLimit else {
                    throw .invalidArgs("\(path) has more than \(Self.portalListLimit) strings")
                }
                strings.append(String(decoding: UnsafeRawBufferPointer(start: pointer, count: strlen(pointer)),
                                      as: UTF8.self))
            }
            try check(sd_bus_message_exit_container(message), path)
            return .strings(strings)
        case "ay":
            var bytes: UnsafeRawPointer?
            var size = 0
            try check(sd_bus_message_read_array(message, code("y"), &bytes, &size), path)
            guard size <= Self.portalFileBytes else {
                return .unreadable("\(path) is \(size) bytes, more than \(Self.portalFileBytes)")
            }
            return .bytes(Array(UnsafeRawBufferPointer(start: bytes, count: bytes == nil ? 0 : size)))
        case "h":
            let fd = try readBasic("h", Int32(-1), in: path)
            return Self.contents(of: fd, path: path)
        default:  // "(sv)"
            try check(sd_bus_message_enter_container(message, code("r"), "sv"), path)
            let tag = try readString(in: "the kind of \(path)")
            let inner = try readPortalVariant(path: "\(path)'s \(tag)", depth: depth + 1, targets: &targets)
            try check(sd_bus_message_exit_container(message), path)
            return .tagged(tag, inner)
        }
    }

    /// The bytes of the file behind `fd` (which the message owns), from
    /// its start, read without moving its offset; bounded. The front end
    /// hands over sealed memfds: their size cannot change under the read.
    static func contents(of fd: Int32, path: String) -> PortalValue {
        var status = stat()
        guard fstat(fd, &status) == 0 else { return .unreadable("\(path): fstat: \(errorText(errno))") }
        guard status.st_mode & S_IFMT == S_IFREG else {
            return .unreadable("\(path) is not a regular file (a memfd or a file is expected)")
        }
        let size = Int(status.st_size)
        guard size <= portalFileBytes else {
            return .unreadable("\(path) holds \(size) bytes, more than \(portalFileBytes)")
        }
        var bytes = [UInt8](repeating: 0, count: size)
        var done = 0
        while done < size {
            let got = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, size - done, off_t(done)) }
            if got < 0, errno == EINTR { continue }
            guard got > 0 else { break }
            done += got
        }
        return .bytes(Array(bytes[..<done]))
    }

    private func check(_ result: Int32, _ path: @autoclosure () -> String) throws(BusError) {
        if result < 0 {
            throw .invalidArgs("malformed arguments (reading \(path())): \(errorText(-result))")
        }
    }
}
