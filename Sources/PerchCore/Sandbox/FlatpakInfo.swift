/// The one thing Perch reads from a Flatpak sandbox's `/.flatpak-info`:
/// the app id, as xdg-desktop-portal reads it to tell apps apart.
///
/// `flatpak run` writes the file (a key file) and binds it read-only at the
/// root of the app's sandbox, and of the D-Bus proxy the app talks through,
/// so the bus's sender of an app's call is a process with it in its root:
///
///     [Application]
///     name=org.example.App
///     runtime=runtime/org.freedesktop.Platform/x86_64/23.08
///
/// A sandbox made for a runtime alone (`flatpak run --runtime=…`) has a
/// `[Runtime]` group, whose `name` then counts, as for the portal.
///
/// The file is read as the sandbox's own, so as untrusted: bounded
/// (`maximumBytes`, enforced by the reader before a byte is parsed), read
/// with `DesktopKeyFile`'s tolerant parser, and the name kept only when it
/// is a valid app id (`problem(withAppID:)`), so that what is stored with
/// a notification and written in a log line is a short dotted name.
public enum FlatpakInfo {
    /// Why no app id came out of the file: one sentence for the log.
    public struct Problem: Error, Equatable, Sendable {
        public var message: String
    }

    /// Flatpak writes a few hundred bytes (the app, its runtime, the
    /// instance, the permissions); 64 KiB leaves room for a long
    /// permission list and bounds a hostile one.
    public static let maximumBytes = 64 << 10

    /// The app id the file names, or why it names none.
    public static func appID(in bytes: [UInt8]) -> Result<String, Problem> {
        guard bytes.count <= maximumBytes else {
            return .failure(Problem(message: "is \(bytes.count) bytes, more than \(maximumBytes)"))
        }
        var limits = DesktopKeyFile.Limits()
        limits.maximumBytes = maximumBytes
        let file = DesktopKeyFile(parsing: bytes, limits: limits)
        let group = file.groups["Runtime"] != nil ? "Runtime" : "Application"
        guard let name = file.value("name", in: group) else {
            return .failure(Problem(message: "has no name in [Application] or [Runtime]"))
        }
        if let problem = problem(withAppID: name) {
            return .failure(Problem(message: "names \"\(printable(name))\", which is not an app id: \(problem)"))
        }
        return .success(name)
    }

    /// Why `name` is not a Flatpak app id, or nil when it is one. Flatpak's
    /// own rule: at most 255 bytes, three or more elements separated by
    /// dots, each of ASCII letters, digits and `_` and not starting with a
    /// digit; `-` only in the last element.
    public static func problem(withAppID name: String) -> String? {
        let bytes = Array(name.utf8)
        guard !bytes.isEmpty else { return "it is empty" }
        guard bytes.count <= 255 else { return "it is longer than 255 bytes" }
        let elements = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard elements.count >= 3 else { return "it has fewer than three elements" }
        for (index, element) in elements.enumerated() {
            guard let first = element.first else { return "an element is empty" }
            if isDigit(first) { return "an element starts with a digit" }
            let last = index == elements.count - 1
            for byte in element where !(isLetter(byte) || isDigit(byte) || byte == UInt8(ascii: "_")) {
                if byte == UInt8(ascii: "-") {
                    if last { continue }
                    return "only its last element may contain \"-\""
                }
                return "it contains a character other than letters, digits, \"_\" and \"-\""
            }
        }
        return nil
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a") ... UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A") ... UInt8(ascii: "Z")).contains(byte)
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0") ... UInt8(ascii: "9")).contains(byte)
    }

    /// At most 64 characters of `text` with control characters shown as
    /// `?`, for a log line that quotes what the file said.
    private static func printable(_ text: String) -> String {
        let shown = text.unicodeScalars.prefix(64).map { $0.properties.generalCategory == .control ? "?" : Character($0) }
        return String(shown) + (text.unicodeScalars.count > 64 ? "…" : "")
    }
}
