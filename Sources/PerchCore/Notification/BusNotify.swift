
/// A Notify call (Desktop Notifications Specification 1.2), decoded and
/// checked. Hints Perch does not know are ignored; known hints of the wrong
/// type, and images that cannot be drawn, are dropped with a line in
/// `diagnostics` rather than failing the call: a sender's mistake in an
/// optional extra should not cost the user the notification.
public struct BusNotify: Equatable, Sendable {
    public var appName: String
    /// The id of a notification to replace in place; 0 = none.
    public var replacesID: UInt32
    /// An icon name or a `file://` URI or path.
    public var appIcon: String
    public var summary: String
    /// Passed through as sent; markup is the renderer's business.
    public var body: String
    public var actions: [NotificationAction]
    /// The `urgency` hint (byte 0 low, 1 normal, 2 critical).
    public var urgency: Urgency
    public var category: String?
    /// The `desktop-entry` hint: the sender's .desktop file name, without
    /// the suffix.
    public var desktopEntry: String?
    /// The `image-path` hint: an icon name or a `file://` URI or path.
    public var imagePath: String?
    /// The `image-data` hint, only when it passed `RawImage.problem`.
    public var image: RawImage?
    /// Do not keep it in history.
    public var transient: Bool
    /// Stays after an action is invoked, until closed explicitly.
    public var resident: Bool
    /// The `value` hint: progress in percent, clamped to 0...100.
    public var value: Int?
    /// The `x-canonical-private-synchronous` hint (or dunst's
    /// `x-dunst-stack-tag`): a notification with the same tag replaces the
    /// previous one (volume and brightness popups).
    public var synchronousTag: String?
    /// The `x-kde-reply-placeholder-text` hint: what the reply field of a
    /// notification with the `inline-reply` action shows while empty.
    public var replyPlaceholder: String?
    /// The `x-kde-urls` hint: the URLs of files the sender attaches, those
    /// that are URLs (`Attachment.isURL`), in its order.
    public var attachments: [String] = []
    /// The `x-kde-display-appname` hint: the app name to show instead of
    /// `appName` (KDE Connect's phone apps, a browser's web apps).
    public var displayAppName: String?
    /// The `x-kde-origin-name` hint: where it comes from (a phone, a
    /// host), shown after the app name as Plasma does.
    public var originName: String?
    /// The sound to play: the `sound-file` hint when it names a usable
    /// path, else `sound-name`; nil when neither does.
    public var sound: NotificationSound?
    /// The `suppress-sound` hint: play nothing, whatever the config says.
    public var suppressSound = false
    /// Milliseconds; -1 = the server's default, 0 = never expires.
    public var expireTimeout: Int32
    /// The caller's unique bus name (`:1.42`), when known.
    public var sender: String?
    /// The caller's sandbox (`Notification.sandbox`), which the bus finds
    /// out before it hands the call over; nil for an ordinary client.
    public var sandbox: String?
    /// What was ignored and why, one line each, for the log.
    public var diagnostics: [String]

    /// Decodes the call's arguments; nothing in them fails the call. An
    /// action list of odd length keeps its complete pairs and drops the
    /// last string with a line in `diagnostics` (the notification, and the
    /// actions that are whole, still reach the user).
    public init(appName: String, replacesID: UInt32, appIcon: String, summary: String, body: String,
                actions flatActions: [String], hints: [(key: String, value: BusHintValue)],
                expireTimeout: Int32, sender: String? = nil) {
        self.appName = appName
        self.replacesID = replacesID
        self.appIcon = appIcon
        self.summary = summary
        self.body = body
        actions = stride(from: 0, to: flatActions.count - 1, by: 2).map {
            NotificationAction(id: flatActions[$0], label: flatActions[$0 + 1])
        }
        urgency = .normal
        transient = false
        resident = false
        self.sender = sender
        diagnostics = []
        if !flatActions.count.isMultiple(of: 2) {
            let orphan = String(flatActions[flatActions.count - 1].prefix(64))
            diagnostics.append("actions must come in pairs of identifier and label; \(flatActions.count) strings "
                               + "sent, the last (\"\(orphan)\") has no pair and is left out")
        }
        if expireTimeout < -1 {
            diagnostics.append("expire_timeout \(expireTimeout) is negative; using the default")
            self.expireTimeout = -1
        } else {
            self.expireTimeout = expireTimeout
        }
        // image-data was called image_data in 1.1 and icon_data in 1.0; the
        // newest name present wins (spec: "image-data", then "image-path").
        var images: [String: BusHintValue] = [:]
        for (key, value) in hints {
            switch key {
            case "image-data", "image_data", "icon_data":
                images[key] = value
            default:
                apply(key, value)
            }
        }
        if let (key, value) = ["image-data", "image_data", "icon_data"].lazy
            .compactMap({ key in images[key].map { (key, $0) } }).first
        {
            decodeImage(key, value)
        }
        sound = soundFile ?? soundName
    }

    /// The two sound hints as decoded, until `init` picks one.
    private var soundFile: NotificationSound?
    private var soundName: NotificationSound?

    private mutating func apply(_ key: String, _ value: BusHintValue) {
        switch key {
        case "urgency":
            guard let level = value.integer else { return wrongType(key, value, expected: "a byte") }
            switch level {
            case 0: urgency = .low
            case 1: urgency = .normal
            case 2: urgency = .critical
            default: diagnostics.append("hint urgency \(level) is not 0, 1 or 2; ignored")
            }
        case "category":
            guard case .string(let text) = value else { return wrongType(key, value, expected: "a string") }
            category = text
        case "desktop-entry":
            guard case .string(let text) = value else { return wrongType(key, value, expected: "a string") }
            desktopEntry = text
        case "image-path", "image_path":
            guard case .string(let text) = value else { return wrongType(key, value, expected: "a string") }
            // The 1.2 name wins over the 1.1 one whatever their order.
            if key == "image-path" || imagePath == nil { imagePath = text }
        case "transient":
            guard case .boolean(let flag) = value else { return wrongType(key, value, expected: "a boolean") }
            transient = flag
        case "resident":
            guard case .boolean(let flag) = value else { return wrongType(key, value, expected: "a boolean") }
            resident = flag
        case "value":
            guard let percent = value.integer else { return wrongType(key, value, expected: "an int32") }
            self.value = Int(min(max(percent, 0), 100))
        case "x-canonical-private-synchronous", "x-dunst-stack-tag":
            // dunst's name for the same thing; the canonical one wins when
            // a sender gives both, whatever their order.
            guard case .string(let text) = value else { return wrongType(key, value, expected: "a string") }
            if key == "x-canonical-private-synchronous" || synchronousTag == nil { synchronousTag = text }
        case "x-kde-reply-placeholder-text":
            guard case .string(let text) = value else { return wrongType(key, value, expected: "a string") }
            replyPlaceholder = text
        case "sound-name", "sound-file":
            guard case .string(let text) = value else { return wrongType(key, value, expected: "a string") }
            switch key == "sound-file" ? NotificationSound.file(text) : NotificationSound.name(text) {
            case .success(let sound):
                if key == "sound-file" { soundFile = sound } else { soundName = sound }
            case .failure(let problem):
                diagnostics.append("hint \(key) ignored: \(problem.message)")
            }
        case "x-kde-urls":
            guard case .strings(let urls) = value else { return wrongType(key, value, expected: "an array of strings") }
            attachments = urls.filter(Attachment.isURL)
            if attachments.count < urls.count {
                diagnostics.append("hint x-kde-urls: \(urls.count - attachments.count) of \(urls.count) are no URL; ignored")
            }
        case "x-kde-display-appname", "x-kde-origin-name":
            guard case .string(let text) = value else { return wrongType(key, value, expected: "a string") }
            let trimmed = String(Substring(text).trimmingSpaces)
            if key == "x-kde-origin-name" { originName = trimmed.isEmpty ? nil : trimmed }
            else { displayAppName = trimmed.isEmpty ? nil : trimmed }
        case "suppress-sound":
            guard case .boolean(let flag) = value else { return wrongType(key, value, expected: "a boolean") }
            suppressSound = flag
        default:
            // action-icons, x, y and vendor hints: accepted and ignored.
            break
        }
    }

    private mutating func decodeImage(_ key: String, _ value: BusHintValue) {
        guard case .image(let raw) = value else { return wrongType(key, value, expected: "(iiibiiay)") }
        if let problem = raw.problem {
            diagnostics.append("hint \(key) ignored: \(problem)")
        } else {
            if let sent = raw.scaledFrom {
                diagnostics.append("hint \(key): image of \(sent.width)×\(sent.height) pixels scaled down to "
                    + "\(raw.width)×\(raw.height)")
            }
            image = raw
        }
    }

    private mutating func wrongType(_ key: String, _ value: BusHintValue, expected: String) {
        diagnostics.append("hint \(key) has type \(value.signature), expected \(expected); ignored")
    }
}
