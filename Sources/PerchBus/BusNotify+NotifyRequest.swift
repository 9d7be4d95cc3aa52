import PerchCore

extension BusNotify {
    /// The same request as the control socket's `notify`, so both front
    /// doors post through one core operation. What `NotifyRequest` cannot
    /// carry (image-data pixels, transient, progress, the synchronous tag,
    /// desktop entry) stays on `BusNotify` for the daemon to use.
    public var notifyRequest: NotifyRequest {
        var request = NotifyRequest(title: summary)
        request.body = body
        request.app = appName
        // Spec order: image-data, then image-path, then app_icon. Perch
        // draws PNG files, so only paths and file:// URIs count; themed icon
        // names are not looked up.
        request.iconPath = imagePath.flatMap(Self.filePath) ?? Self.filePath(appIcon)
        request.urgency = urgency
        switch expireTimeout {
        case -1: request.timeout = nil
        default: request.timeout = Double(expireTimeout) / 1000
        }
        request.replaces = replacesID == 0 ? nil : replacesID
        request.actions = actions
        request.resident = resident
        request.category = category
        request.progress = value
        request.synchronousTag = synchronousTag
        request.image = image.flatMap(\.toastImage)
        return request
    }

    /// The file an icon string names: an absolute path as is, a `file://`
    /// URI decoded; nil for icon names and other schemes.
    static func filePath(_ icon: String) -> String? {
        if icon.hasPrefix("/") { return icon }
        let scheme = "file://"
        guard icon.hasPrefix(scheme) else { return nil }
        // file:///path or file://localhost/path
        var rest = Substring(icon.dropFirst(scheme.count))
        if rest.hasPrefix("localhost/") { rest = rest.dropFirst("localhost".count) }
        guard rest.hasPrefix("/") else { return nil }
        return percentDecoded(rest)
    }

    /// `%XX` escapes replaced by their bytes; nil when the result is not
    /// UTF-8 or an escape is malformed.
    private static func percentDecoded(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue)
            else { return nil }
            bytes.append(high << 4 | low)
        }
        guard !bytes.contains(0) else { return nil }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

extension DismissReason {
    /// The NotificationClosed signal's reason code: 1 expired, 2 dismissed
    /// by the user, 3 closed by a call to CloseNotification, 4 undefined.
    /// Replaced and suppressed have no code of their own and are 4.
    public var freedesktopCode: UInt32 {
        switch self {
        case .expired: 1
        case .dismissedByUser: 2
        case .closedByCall: 3
        case .replaced, .suppressed: 4
        }
    }
}
