/// KDE's hints about what a notification carries and where it is from:
/// files attached (`x-kde-urls`), the app name to show
/// (`x-kde-display-appname`) and the origin (`x-kde-origin-name`).
///
/// The first attachment gets a button that opens it (`xdg-open`, run by
/// Perch: the sender hears nothing), and the first attached image that is
/// a local file is drawn as the toast's image when the sender gave none of
/// its own; it is then read like any other icon file (bounded in bytes and
/// pixels, never a FIFO or a device).
public enum Attachment {
    /// The id of the button that opens the attachment. Perch's own: a
    /// sender's action with this id is the sender's, and no button is added.
    public static let openActionID = "perch-open-attachment"

    /// The longest URL kept (and passed to `xdg-open`).
    public static let maximumURLBytes = 4096

    /// Whether `text` is a URL to hand to `xdg-open`: a scheme (a letter,
    /// then letters, digits, `+`, `-`, `.`), `:`, then something, with no
    /// white space or control characters, at most `maximumURLBytes`.
    public static func isURL(_ text: String) -> Bool {
        guard text.utf8.count <= maximumURLBytes, let colon = text.firstIndex(of: ":"),
              colon != text.startIndex, text.index(after: colon) != text.endIndex else { return false }
        let scheme = text[..<colon].unicodeScalars
        func letter(_ scalar: Unicode.Scalar) -> Bool { ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) }
        guard letter(scheme.first!), scheme.allSatisfy({
            letter($0) || ("0"..."9").contains($0) || $0 == "+" || $0 == "-" || $0 == "."
        }) else { return false }
        return !text.unicodeScalars.contains { $0.value <= 0x20 || (0x7F...0x9F).contains($0.value) }
    }

    /// The file extensions drawn as a thumbnail: the formats Perch decodes.
    static let imageExtensions: Set<String> = ["png", "jpg", "jpeg", "jpe", "svg", "svgz"]

    /// The first `file://` URL among `urls` that names an image by its
    /// extension, as an icon path (the icon loader reads the file and
    /// refuses what is no image).
    public static func thumbnail(among urls: [String]) -> String? {
        urls.first { url in
            guard case .success(let path) = IconSource.fileURI(url, what: "attachment"),
                  let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return false }
            return imageExtensions.contains(path[path.index(after: dot)...].lowercased())
        }
    }

    /// The app name as Plasma shows it: the display name when given, else
    /// the sender's, then the origin after a middle dot ("KDE Connect ·
    /// Alice's phone").
    public static func shownApp(_ appName: String, display: String?, origin: String?) -> String {
        let app = display ?? appName
        guard let origin else { return app }
        return app.isEmpty ? origin : "\(app) · \(origin)"
    }

    /// The label of the open button: the file's name for a `file://` URL
    /// (cut to 64 characters), else "Open".
    public static func buttonLabel(for url: String) -> String {
        guard case .success(let path) = IconSource.fileURI(url, what: "attachment"),
              let name = path.split(separator: "/").last, !name.isEmpty else { return "Open" }
        return name.count > 64 ? String(name.prefix(63)) + "…" : String(name)
    }

    /// Seconds what `xdg-open` runs may live before its process group is
    /// killed as a hook's would be. Not `hook-timeout`: without a desktop
    /// environment, xdg-open runs the viewer in its own group and waits for
    /// it, so a viewer killed after seconds would close under the user.
    public static let openTimeout: Double = 24 * 3600

    /// What opens `url`: `xdg-open`, found on the daemon's PATH, run
    /// without a shell (the URL one argument).
    public static func opener(for url: String) -> HookRun {
        HookRun(name: "open attachment", argv: ["xdg-open", url], environment: [:], timeout: openTimeout)
    }
}
