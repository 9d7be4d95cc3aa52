/// How large a notification may be, applied where it comes in (every post,
/// from either front door) and again where it is read back from disk. The
/// point is a closed loop: whatever Perch accepts it can keep in memory,
/// draw, write to the state file, and read back. A sender cannot make the
/// state file too large to load (and so lose all of history at the next
/// start), nor make the daemon hold megabytes per notification.
///
/// Lengths are UTF-8 bytes. Text that is shown (title, body, app name, a
/// button's label) is cut at a character and ends with "…"; a string that
/// names something (an icon path, a category, an action id, a synchronous
/// tag) is left out instead, since a cut name would name something else.
public enum NotificationLimits {
    /// A summary is one line; 1 KiB is ten lines of a toast already.
    public static let maximumTitleLength = 1 << 10
    /// A toast shows a few lines, but `history` and `list` show all of it:
    /// 64 KiB keeps a long message or a log excerpt whole, and fifty of
    /// them in history are still a few MB on disk.
    public static let maximumBodyLength = 64 << 10
    public static let maximumAppNameLength = 256
    /// PATH_MAX on Linux.
    public static let maximumIconPathLength = 4096
    /// Categories are dotted names like `email.arrived`.
    public static let maximumCategoryLength = 256
    /// A `.desktop` file's name (`org.mozilla.firefox`): a file name.
    public static let maximumDesktopEntryLength = 255
    /// More buttons than fit on any toast.
    public static let maximumActions = 32
    public static let maximumActionIDLength = 256
    public static let maximumActionLabelLength = 256
    public static let maximumSynchronousTagLength = 256
    /// A placeholder is a few words in an empty field ("Reply to Ana…").
    public static let maximumReplyPlaceholderLength = 256
    /// A Flatpak app id and a D-Bus name are both at most 255 bytes.
    public static let maximumSandboxLength = 255
    /// Pixels per side of image data: four times the largest icon the
    /// config can ask for at scale 1, so nothing visible is lost, and 4 MiB
    /// of RGBA at most instead of the 64 MiB a 4096×4096 image holds.
    public static let maximumImageDimension = 1024
    /// Modes are a handful of short words (`do-not-disturb`).
    public static let maximumModes = 64
    public static let maximumModeNameLength = 64

    /// The longest display time, in seconds, a notification gets and the
    /// most time left a restored one may claim. A day is more than any
    /// toast needs; what matters is that `Instant` (Int64 nanoseconds, good
    /// for 292 years) can never overflow when a timer is armed with it.
    public static let longestDisplayTime = 86_400.0

    /// The largest state file (and journal record) Perch writes, and the
    /// largest it reads: one constant, so the writer never makes what the
    /// reader would refuse. Fifty history entries of ordinary size take
    /// tens of kilobytes; bounded notifications keep even a full history of
    /// the largest ones well under this, and the writer drops the oldest
    /// history if they ever do not fit.
    public static let maximumStateSize = 16 << 20

    // MARK: Applying the limits

    /// Brings `request` within the limits and says what was changed, one
    /// line per change (e.g. `body of 9437184 bytes cut to 65536`). The
    /// service calls it on every post, whichever door it came through.
    public static func bound(_ request: inout NotifyRequest) -> [String] {
        bound(fields: &request, includingImage: true)
    }

    /// The same limits for a notification (read back from disk, or about
    /// to be written). `image` is left alone unless `includingImage`: the
    /// state file does not carry pixels, so its writer need not look at them.
    public static func bound(_ notification: inout Notification, includingImage: Bool = true) -> [String] {
        bound(fields: &notification, includingImage: includingImage)
    }

    /// The limits themselves, written once for both.
    private static func bound<Fields: BoundedFields>(fields: inout Fields, includingImage: Bool) -> [String] {
        var warnings: [String] = []
        cut(&fields.title, "title", maximumTitleLength, &warnings)
        cut(&fields.body, "body", maximumBodyLength, &warnings)
        cut(&fields.app, "app name", maximumAppNameLength, &warnings)
        cut(&fields.sentApp, "sent app name", maximumAppNameLength, &warnings)
        drop(&fields.iconPath, "icon path", maximumIconPathLength, &warnings)
        drop(&fields.category, "category", maximumCategoryLength, &warnings)
        drop(&fields.tag, Fields.tagName, maximumSynchronousTagLength, &warnings)
        cut(&fields.replyPlaceholder, "reply placeholder", maximumReplyPlaceholderLength, &warnings)
        // Left out, it is an ordinary client's: then no sandbox may touch it.
        drop(&fields.sandbox, "sandbox", maximumSandboxLength, &warnings)
        drop(&fields.desktopEntry, "desktop entry", maximumDesktopEntryLength, &warnings)
        bound(&fields.actions, &warnings)
        bound(timeout: &fields.timeout, &warnings)
        bound(progress: &fields.progress, &warnings)
        if includingImage { bound(&fields.image, &warnings) }
        return warnings
    }

    /// At most `maximumModes` names of at most `maximumModeNameLength`
    /// bytes, sorted and without repeats; the rest are left out.
    public static func bound(modes: inout [String]) -> [String] {
        var warnings: [String] = []
        var kept: [String] = []
        // One warning per kind, not per name: a client may send 100 000.
        var long: [Int] = []
        for name in Array(Set(modes)).sorted() {
            if name.utf8.count > maximumModeNameLength {
                long.append(name.utf8.count)
            } else if name.isEmpty {
                warnings.append("an empty mode name is left out")
            } else {
                kept.append(name)
            }
        }
        if long.count == 1 {
            warnings.append("mode name of \(long[0]) bytes is longer than \(maximumModeNameLength); left out")
        } else if long.count > 1 {
            warnings.append("\(long.count) mode names longer than \(maximumModeNameLength) bytes are left out")
        }
        if kept.count > maximumModes {
            warnings.append("\(kept.count) modes; only the first \(maximumModes) are kept")
            kept.removeLast(kept.count - maximumModes)
        }
        modes = kept
        return warnings
    }

    /// A display time within 0 ... `longestDisplayTime` (0 = until
    /// dismissed). Nothing that is not a number of seconds from 0 up has a
    /// meaning, so NaN and negative values become nil: the urgency's default.
    static func bound(timeout: inout Double?, _ warnings: inout [String]) {
        guard let seconds = timeout else { return }
        if seconds.isNaN || seconds < 0 {
            warnings.append("timeout of \(seconds) s is not 0 or more seconds; the default is used")
            timeout = nil
        } else if seconds > longestDisplayTime {
            warnings.append("timeout of \(seconds) s is longer than \(Int(longestDisplayTime)) s; cut to that")
            timeout = longestDisplayTime
        }
    }

    // MARK: Fields

    private static func cut(_ text: inout String, _ name: String, _ limit: Int, _ warnings: inout [String]) {
        let length = text.utf8.count
        guard length > limit else { return }
        text = truncated(text, toBytes: limit)
        warnings.append("\(name) of \(length) bytes cut to \(text.utf8.count)")
    }

    private static func cut(_ text: inout String?, _ name: String, _ limit: Int, _ warnings: inout [String]) {
        guard var value = text else { return }
        cut(&value, name, limit, &warnings)
        text = value
    }

    private static func drop(_ text: inout String?, _ name: String, _ limit: Int, _ warnings: inout [String]) {
        guard let length = text?.utf8.count, length > limit else { return }
        text = nil
        warnings.append("\(name) of \(length) bytes is longer than \(limit); left out")
    }

    private static func bound(_ actions: inout [NotificationAction], _ warnings: inout [String]) {
        if actions.count > maximumActions {
            warnings.append("\(actions.count) actions; only the first \(maximumActions) are kept")
            actions.removeLast(actions.count - maximumActions)
        }
        actions.removeAll { action in
            guard action.id.utf8.count > maximumActionIDLength else { return false }
            warnings.append("action id of \(action.id.utf8.count) bytes is longer than \(maximumActionIDLength); "
                + "that action is left out")
            return true
        }
        for index in actions.indices {
            cut(&actions[index].label, "action label", maximumActionLabelLength, &warnings)
        }
    }

    private static func bound(progress: inout Int?, _ warnings: inout [String]) {
        guard let value = progress, !(0 ... 100).contains(value) else { return }
        warnings.append("progress of \(value) is outside 0 to 100; clamped")
        progress = min(max(value, 0), 100)
    }

    private static func bound(_ image: inout ToastImage?, _ warnings: inout [String]) {
        guard let source = image, max(source.width, source.height) > maximumImageDimension else { return }
        let scaled = scaledDown(source)
        warnings.append("image of \(source.width)×\(source.height) pixels scaled down to \(scaled.width)×\(scaled.height)")
        image = scaled
    }

    /// `text`'s longest prefix that, with "…" after it, takes at most
    /// `limit` bytes. The cut falls between Unicode scalars (never inside
    /// one, which would not be UTF-8); a combining mark may lose its base
    /// letter, which is harmless at the end of text that is cut anyway.
    static func truncated(_ text: String, toBytes limit: Int) -> String {
        let ellipsis = "…"
        let utf8 = text.utf8
        guard utf8.count > limit else { return text }
        guard limit >= ellipsis.utf8.count else { return "" }
        var end = utf8.index(utf8.startIndex, offsetBy: limit - ellipsis.utf8.count)
        // Continuation bytes are 0b10xxxxxx; a scalar starts at any other.
        while end > utf8.startIndex, utf8[end] & 0xC0 == 0x80 { utf8.formIndex(before: &end) }
        return String(decoding: utf8[..<end], as: UTF8.self) + ellipsis
    }

    /// The image reduced by the smallest whole factor that brings both
    /// sides within `maximumImageDimension` (`RawImage.reducedRGBA`).
    static func scaledDown(_ source: ToastImage) -> ToastImage {
        let reduced = RawImage.reducedRGBA(width: source.width, height: source.height, rowstride: source.width * 4,
                                           channels: 4, hasAlpha: true, from: source.rgba,
                                           within: maximumImageDimension)
        // The sizes add up by construction, and both sides are within 4096.
        return ToastImage(width: reduced.width, height: reduced.height, rgba: reduced.rgba)!
    }
}

/// What a post asks for and what a notification keeps alike, so that the
/// limits are written once (`NotificationLimits.bound(fields:)`): the
/// same fields, and the synchronous tag under each one's name for it.
protocol BoundedFields {
    var title: String { get set }
    var body: String { get set }
    var app: String { get set }
    var sentApp: String? { get set }
    var iconPath: String? { get set }
    var category: String? { get set }
    var tag: String? { get set }
    /// What a warning about `tag` calls it.
    static var tagName: String { get }
    var replyPlaceholder: String? { get set }
    var sandbox: String? { get set }
    var desktopEntry: String? { get set }
    var actions: [NotificationAction] { get set }
    var timeout: Double? { get set }
    var progress: Int? { get set }
    var image: ToastImage? { get set }
}

extension NotifyRequest: BoundedFields {
    var tag: String? {
        get { synchronousTag }
        set { synchronousTag = newValue }
    }
    static var tagName: String { "synchronous tag" }
}

extension Notification: BoundedFields {
    var tag: String? {
        get { stackTag }
        set { stackTag = newValue }
    }
    static var tagName: String { "stack tag" }
}
