/// Where a notification's icon comes from, once its strings are read: a
/// file it names, or a name to look up in the icon themes.
public enum IconSource: Hashable, Sendable {
    /// An absolute path (a `file://` URI decoded).
    case file(String)
    /// A theme icon name ("dialog-information", "org.gnome.Nautilus").
    case themed(String)

    /// What an `app_icon`, `image-path` or desktop-entry `Icon=` string
    /// names (Desktop Notifications Specification, "Icons and Images"):
    /// nil for an empty string (no icon given), else the source or why the
    /// string cannot be one.
    public static func parse(_ text: String) -> Result<IconSource, IconDiagnostic>? {
        if text.isEmpty { return nil }
        if text.utf8.contains(0) {
            return .failure(IconDiagnostic(.invalidName, "icon \"\(IconLocator.printable(text))\" contains a NUL byte"))
        }
        if text.hasPrefix("/") {
            guard text.utf8.count <= maximumPathBytes else {
                return .failure(IconDiagnostic(.invalidName, "icon path is longer than \(maximumPathBytes) bytes"))
            }
            return .success(.file(text))
        }
        if let colon = text.firstIndex(of: ":"), isScheme(text[..<colon]) {
            return fileURI(text).map(IconSource.file)
        }
        if let problem = IconName.problem(with: text) {
            return .failure(IconDiagnostic(.invalidName, "icon name \"\(IconLocator.printable(text))\" \(problem)"))
        }
        return .success(.themed(text))
    }

    /// PATH_MAX: the kernel refuses longer paths anyway.
    static let maximumPathBytes = 4_096

    /// A URI scheme (RFC 3986: a letter, then letters, digits, "+-."),
    /// which an icon name never starts with: names have no colon.
    private static func isScheme(_ text: Substring) -> Bool {
        guard let first = text.unicodeScalars.first, first.isASCIILetter else { return false }
        return text.unicodeScalars.allSatisfy {
            $0.isASCIILetter || ("0"..."9").contains($0) || $0 == "+" || $0 == "-" || $0 == "."
        }
    }

    /// The local path of `file:///path` or `file://localhost/path`, percent
    /// decoded (RFC 8089). Another host would mean a file on another
    /// machine, which a local daemon cannot open; a `#` would start a
    /// fragment, which no file has, so both are refused as GLib does.
    /// `what` names the string in messages ("icon", "sound-file").
    static func fileURI(_ uri: String, what: String = "icon") -> Result<String, IconDiagnostic> {
        let shown = IconLocator.printable(uri)
        let scheme = "file://"
        guard uri.count >= scheme.count, uri.prefix(scheme.count).lowercased() == scheme else {
            return .failure(IconDiagnostic(.invalidURI, "\(what) URI \"\(shown)\" is not a file:// URI"))
        }
        var rest = Substring(uri.dropFirst(scheme.count))
        let host = rest.prefix { $0 != "/" }
        guard host.isEmpty || host.lowercased() == "localhost" else {
            return .failure(IconDiagnostic(.invalidURI, "\(what) URI \"\(shown)\" names host \(host), not this machine"))
        }
        rest = rest.dropFirst(host.count)
        guard rest.hasPrefix("/") else {
            return .failure(IconDiagnostic(.invalidURI, "\(what) URI \"\(shown)\" has no path"))
        }
        guard !rest.contains("#") else {
            return .failure(IconDiagnostic(.invalidURI, "\(what) URI \"\(shown)\" has a fragment (#)"))
        }
        guard let path = percentDecoded(rest) else {
            return .failure(IconDiagnostic(.invalidURI,
                                           "\(what) URI \"\(shown)\" has a bad %-escape, an escaped NUL or is not UTF-8"))
        }
        guard path.utf8.count <= maximumPathBytes else {
            return .failure(IconDiagnostic(.invalidURI, "\(what) URI's path is longer than \(maximumPathBytes) bytes"))
        }
        return .success(path)
    }

    /// Nil when an escape is not two hex digits, decodes to NUL (which
    /// would cut the path short in every C call), or the result is not
    /// UTF-8.
    private static func percentDecoded(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var input = text.utf8.makeIterator()
        while let byte = input.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = input.next().flatMap(hexDigit), let low = input.next().flatMap(hexDigit) else { return nil }
            let decoded = high << 4 | low
            guard decoded != 0 else { return nil }
            bytes.append(decoded)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte &- UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte &- UInt8(ascii: "a") &+ 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte &- UInt8(ascii: "A") &+ 10
        default: nil
        }
    }
}

extension Unicode.Scalar {
    fileprivate var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
}
