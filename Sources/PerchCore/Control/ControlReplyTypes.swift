/// The result of each control method, one type per shape (docs/protocol.md,
/// "Methods"). `json` is exactly what the daemon sends: members in the
/// documented order, integers without a fraction. `init(json:)` reads a
/// result back; members it does not know are ignored (a newer daemon's),
/// a missing or mistyped one is a `ControlReplyError` naming it.
public protocol ControlReplyBody: Equatable, Sendable {
    init(json: JSONValue) throws(ControlReplyError)
    var json: JSONValue { get }
}

extension ControlReplyBody {
    /// Reads `method`'s result; the error, if any, names the method.
    public init(json: JSONValue, for method: ControlMethod) throws(ControlReplyError) {
        do throws(ControlReplyError) {
            try self.init(json: json)
        } catch {
            throw error.reply(to: method)
        }
    }
}

/// `notify` and `restore`: `{"id": N}`, the notification's id.
public struct PostedReply: ControlReplyBody {
    public var id: UInt32

    public init(id: UInt32) {
        self.id = id
    }

    public init(json: JSONValue) throws(ControlReplyError) {
        id = try ControlReplyObject(json, at: "").notificationID("id")
    }

    public var json: JSONValue { ["id": .number(Double(id))] }
}

/// `dismiss`: `{"dismissed": [ids…]}`.
public struct DismissReply: ControlReplyBody {
    public var dismissed: [UInt32]

    public init(dismissed: [UInt32]) {
        self.dismissed = dismissed
    }

    public init(json: JSONValue) throws(ControlReplyError) {
        dismissed = try ControlReplyObject(json, at: "").notificationIDs("dismissed")
    }

    public var json: JSONValue { ["dismissed": .array(dismissed.map { .number(Double($0)) })] }
}

/// `invoke`: `{"invoked": "yes"}`, the action's id.
public struct InvokeReply: ControlReplyBody {
    public var invoked: String

    public init(invoked: String) {
        self.invoked = invoked
    }

    public init(json: JSONValue) throws(ControlReplyError) {
        invoked = try ControlReplyObject(json, at: "").string("invoked")
    }

    public var json: JSONValue { ["invoked": .string(invoked)] }
}

/// `reply`: `{"replied": "text"}`, the text as it was sent (control
/// characters removed, cut to `ReplyText.maximumLength`).
public struct RepliedReply: ControlReplyBody {
    public var replied: String

    public init(replied: String) {
        self.replied = replied
    }

    public init(json: JSONValue) throws(ControlReplyError) {
        replied = try ControlReplyObject(json, at: "").string("replied")
    }

    public var json: JSONValue { ["replied": .string(replied)] }
}

/// `copy`: `{"copied": "text", "what": "text"|"code"}`, what is on the
/// clipboard now.
public struct CopyReply: ControlReplyBody {
    public var copied: String
    public var what: CopyWhat

    public init(copied: String, what: CopyWhat) {
        self.copied = copied
        self.what = what
    }

    public init(json: JSONValue) throws(ControlReplyError) {
        let object = try ControlReplyObject(json, at: "")
        copied = try object.string("copied")
        what = try object.choice("what", of: CopyWhat.self)
    }

    public var json: JSONValue { ["copied": .string(copied), "what": .string(what.rawValue)] }
}

/// `subscribe`: `{"subscribed": true}`.
public struct SubscribeReply: ControlReplyBody {
    public var subscribed: Bool

    public init(subscribed: Bool = true) {
        self.subscribed = subscribed
    }

    public init(json: JSONValue) throws(ControlReplyError) {
        subscribed = try ControlReplyObject(json, at: "").bool("subscribed")
    }

    public var json: JSONValue { ["subscribed": .bool(subscribed)] }
}

/// `mode`: `{"modes": [names…]}`, the active modes. The daemon sends them
/// sorted; this type keeps whatever order it is given.
public struct ModesReply: ControlReplyBody {
    public var modes: [String]
    /// When the modes turned on for a while go off (Unix seconds), by name;
    /// `ends` in the reply only when there is one.
    public var ends: [String: Int64]

    public init(modes: [String], ends: [String: Int64] = [:]) {
        self.modes = modes
        self.ends = ends
    }

    public init(json: JSONValue) throws(ControlReplyError) {
        let object = try ControlReplyObject(json, at: "")
        modes = try object.strings("modes")
        ends = try Self.ends(object, "ends")
    }

    /// The member `key`: an object of Unix times by mode name; none when
    /// it is absent (a daemon from before modes had ends).
    static func ends(_ object: ControlReplyObject, _ key: String) throws(ControlReplyError) -> [String: Int64] {
        guard let member = object.optional(key) else { return [:] }
        guard let members = member.objectValue else { throw ControlReplyError("\"\(key)\" must be an object") }
        var ends: [String: Int64] = [:]
        for (name, value) in members {
            guard let time = value.intValue else { throw ControlReplyError("\"\(key).\(name)\" must be Unix seconds") }
            ends[name] = Int64(time)
        }
        return ends
    }

    /// `ends` as the reply writes it: by name, in order.
    static func json(ends: [String: Int64]) -> JSONValue {
        .object(JSONObject(ends.sorted { $0.key < $1.key }.map { ($0.key, .number(Double($0.value))) }))
    }

    public var json: JSONValue {
        var object: JSONObject = ["modes": .array(modes.map { .string($0) })]
        if !ends.isEmpty {
            object["ends"] = Self.json(ends: ends)
        }
        return .object(object)
    }
}

/// `list`: an array of notifications, oldest first.
public struct ListReply: ControlReplyBody {
    public var notifications: [Notification]

    public init(_ notifications: [Notification]) {
        self.notifications = notifications
    }

    public init(json: JSONValue) throws(ControlReplyError) {
        notifications = []
        for element in try ControlReplyObject.elements(of: json, at: "") {
            notifications.append(try ControlReplyObject(element.value, at: element.path).notification())
        }
    }

    public var json: JSONValue { .array(notifications.map(ControlProtocol.encode)) }
}

/// `history`: an array of `{"notification", "reason", "closed_at"}`,
/// newest first (the daemon reverses its own oldest-first order).
public struct HistoryReply: ControlReplyBody {
    public var entries: [HistoryEntry]

    public init(_ entries: [HistoryEntry]) {
        self.entries = entries
    }

    public init(json: JSONValue) throws(ControlReplyError) {
        entries = []
        for element in try ControlReplyObject.elements(of: json, at: "") {
            let entry = try ControlReplyObject(element.value, at: element.path)
            entries.append(HistoryEntry(notification: try entry.notification("notification"),
                                        reason: try entry.choice("reason", of: DismissReason.self),
                                        closedAt: Int64(try entry.integer("closed_at", in: 0 ... Int.max,
                                                                          "UNIX seconds (a whole number)"))))
        }
    }

    public var json: JSONValue {
        .array(entries.map { entry in
            ["notification": ControlProtocol.encode(entry.notification), "reason": .string(entry.reason.rawValue),
             "closed_at": .number(Double(entry.closedAt))]
        })
    }
}

/// `status`: what the daemon is doing.
public struct StatusReply: ControlReplyBody {
    /// One Wayland output, in its current mode.
    public struct Output: Equatable, Sendable {
        /// The compositor's name for it (wl_output `name`), e.g. "HEADLESS-1".
        public var name: String
        /// The mode's size in buffer pixels, as the compositor gives it:
        /// before scaling and before the transform (a portrait output
        /// turned by 90° still says 1920×1080).
        public var width: Int
        public var height: Int
        /// Buffer pixels per surface pixel on it: 1.5 on an output at
        /// `scale 1.5` (where wl_output itself says 2), from the shown mode
        /// and the logical size. Whole for integer scales. (Before issue 15
        /// this was wl_output's integer scale.)
        public var scale: Double
        /// Its size in surface pixels, after the transform and scale (what
        /// the compositor lays windows out in): 1280×720 for a 1920×1080
        /// mode at 1.5; 1080×1920 turned by 90° at 1.
        public var logicalWidth: Int
        public var logicalHeight: Int
        /// How it is turned, as wl_output.transform says: "normal", "90",
        /// "180", "270", "flipped", "flipped-90", "flipped-180" or
        /// "flipped-270". Wayland counts counter-clockwise: sway's
        /// `transform 90` (a clockwise turn) is "270" here.
        public var transform: String

        public static let transforms = ["normal", "90", "180", "270",
                                        "flipped", "flipped-90", "flipped-180", "flipped-270"]

        public init(name: String, width: Int, height: Int, scale: Double,
                    logicalWidth: Int, logicalHeight: Int, transform: String = "normal") {
            self.name = name
            self.width = width
            self.height = height
            self.scale = scale
            self.logicalWidth = logicalWidth
            self.logicalHeight = logicalHeight
            self.transform = transform
        }
    }

    /// An app that holds an inhibition (KDE's `Inhibit` on D-Bus), as it
    /// named itself and its reason.
    public struct Inhibitor: Equatable, Sendable {
        public var app: String
        public var reason: String

        public init(app: String, reason: String) {
            self.app = app
            self.reason = reason
        }
    }

    public var version: String
    /// On screen and not leaving (with the group-by members folded under
    /// them).
    public var shown: Int
    /// Waiting for a place on screen (likewise).
    public var queued: Int
    /// Entries in history.
    public var history: Int
    /// The active modes, sorted.
    public var modes: [String]
    public var doNotDisturb: Bool
    /// Live but off screen, their timers stopped, while do-not-disturb, a
    /// fullscreen window (`fullscreen=hold`) or the open center holds them;
    /// not counted in `queued`.
    public var held: Int
    /// The focused window is fullscreen where the toasts are.
    public var fullscreen: Bool
    /// The seat has been idle for `idle-threshold`: display timers stand still.
    public var idle: Bool
    /// Every output is powered off (the screen blanked): display timers
    /// stand still.
    public var blanked: Bool
    /// The screen is being shared (a screencast with a consumer, or the
    /// compositor says so), as far as `while-sharing` lets Perch look.
    public var sharing: Bool
    /// What keeps arrivals back now, most telling first
    /// (`HoldPolicy.reasons`: "sharing", "inhibited", "do-not-disturb",
    /// "fullscreen"); empty when nothing does.
    public var holding: [String]
    public var outputs: [Output]
    /// Whole seconds since the daemon started.
    public var uptime: Int
    /// The inhibitions held, oldest first (any keeps arrivals back as
    /// do-not-disturb does).
    public var inhibitors: [Inhibitor]
    /// When each mode turned on for a while goes off (Unix seconds).
    public var modeEnds: [String: Int64] = [:]
    /// Live notifications snoozed (counted in `held` too).
    public var snoozed = 0

    public init(version: String = PerchVersion.string, shown: Int, queued: Int, history: Int, modes: [String],
                doNotDisturb: Bool, held: Int = 0, fullscreen: Bool = false, idle: Bool = false,
                blanked: Bool = false, sharing: Bool = false, holding: [String] = [], outputs: [Output],
                uptime: Int, inhibitors: [Inhibitor] = []) {
        self.version = version
        self.shown = shown
        self.queued = queued
        self.history = history
        self.modes = modes
        self.doNotDisturb = doNotDisturb
        self.held = held
        self.fullscreen = fullscreen
        self.idle = idle
        self.blanked = blanked
        self.sharing = sharing
        self.holding = holding
        self.outputs = outputs
        self.uptime = uptime
        self.inhibitors = inhibitors
    }

    public init(json: JSONValue) throws(ControlReplyError) {
        let object = try ControlReplyObject(json, at: "")
        version = try object.string("version")
        shown = try object.count("shown")
        queued = try object.count("queued")
        history = try object.count("history")
        modes = try object.strings("modes")
        doNotDisturb = try object.bool("do_not_disturb")
        // A daemon from before issue 15 holds nothing and knows no idleness.
        held = object.optional("held") == nil ? 0 : try object.count("held")
        fullscreen = object.optional("fullscreen") == nil ? false : try object.bool("fullscreen")
        idle = object.optional("idle") == nil ? false : try object.bool("idle")
        // Nor does one from before issue 29 know a blanked screen.
        blanked = object.optional("blanked") == nil ? false : try object.bool("blanked")
        // Nor does one from before issue 42 know shares or say what holds.
        sharing = object.optional("sharing") == nil ? false : try object.bool("sharing")
        holding = object.optional("holding") == nil ? [] : try object.strings("holding")
        outputs = []
        let outputList = try object.required("outputs")
        for element in try ControlReplyObject.elements(of: outputList, at: object.path(of: "outputs")) {
            let output = try ControlReplyObject(element.value, at: element.path)
            // Sizes fit Int32, what wl_output sends.
            let pixels = 0 ... Int(Int32.max)
            let name = try output.string("name")
            let width = try output.integer("width", in: pixels, "a size in pixels")
            let height = try output.integer("height", in: pixels, "a size in pixels")
            let scale = try output.number("scale", in: 0.001 ... Double(Int32.max), "a scale (a positive number)")
            // A daemon from before issue 15 sends neither the logical size nor
            // the transform: its scale was the integer one, and the mode over
            // it the logical size (unturned, as it could not tell).
            let logicalWidth = output.optional("logical_width") == nil ? Int(Double(width) / scale)
                : try output.integer("logical_width", in: pixels, "a size in pixels")
            let logicalHeight = output.optional("logical_height") == nil ? Int(Double(height) / scale)
                : try output.integer("logical_height", in: pixels, "a size in pixels")
            let transform = try output.optionalString("transform") ?? "normal"
            guard Output.transforms.contains(transform) else {
                throw ControlReplyError("\"\(output.path(of: "transform"))\" must be one of "
                    + Output.transforms.joined(separator: ", ") + ", not \"\(transform)\"")
            }
            outputs.append(Output(name: name, width: width, height: height, scale: scale,
                                  logicalWidth: logicalWidth, logicalHeight: logicalHeight, transform: transform))
        }
        uptime = try object.integer("uptime", in: 0 ... Int.max, "whole seconds")
        // A daemon from before issue 42 knows no inhibitions.
        inhibitors = []
        if let list = object.optional("inhibitors") {
            for element in try ControlReplyObject.elements(of: list, at: object.path(of: "inhibitors")) {
                let inhibitor = try ControlReplyObject(element.value, at: element.path)
                inhibitors.append(Inhibitor(app: try inhibitor.string("app"), reason: try inhibitor.string("reason")))
            }
        }
        modeEnds = try ModesReply.ends(object, "mode_ends")
        snoozed = object.optional("snoozed") == nil ? 0 : try object.count("snoozed")
    }

    public var json: JSONValue {
        [
            "version": .string(version),
            "shown": .number(Double(shown)),
            "queued": .number(Double(queued)),
            "history": .number(Double(history)),
            "modes": .array(modes.map { .string($0) }),
            "do_not_disturb": .bool(doNotDisturb),
            "held": .number(Double(held)),
            "fullscreen": .bool(fullscreen),
            "idle": .bool(idle),
            "blanked": .bool(blanked),
            "sharing": .bool(sharing),
            "holding": .array(holding.map { .string($0) }),
            "outputs": .array(outputs.map {
                ["name": .string($0.name), "width": .number(Double($0.width)), "height": .number(Double($0.height)),
                 "scale": .number($0.scale), "logical_width": .number(Double($0.logicalWidth)),
                 "logical_height": .number(Double($0.logicalHeight)), "transform": .string($0.transform)]
            }),
            "uptime": .number(Double(uptime)),
            "inhibitors": .array(inhibitors.map { ["app": .string($0.app), "reason": .string($0.reason)] }),
            "mode_ends": ModesReply.json(ends: modeEnds),
            "snoozed": .number(Double(snoozed)),
        ]
    }
}

/// `version`: `{"version": "0.1.0", "protocol": 1}`.
public struct VersionReply: ControlReplyBody {
    public var version: String
    /// The protocol's revision (`protocol` on the wire).
    public var protocolVersion: Int

    public init(version: String = PerchVersion.string, protocolVersion: Int = ControlProtocol.revision) {
        self.version = version
        self.protocolVersion = protocolVersion
    }

    public init(json: JSONValue) throws(ControlReplyError) {
        let object = try ControlReplyObject(json, at: "")
        version = try object.string("version")
        protocolVersion = try object.integer("protocol", in: 1 ... Int.max, "a revision (a positive integer)")
    }

    public var json: JSONValue { ["version": .string(version), "protocol": .number(Double(protocolVersion))] }
}

/// `reload`: `{"reloaded": true, "warnings": [lines…]}`. A config with
/// errors is an error reply (`-32003`), not this.
public struct ReloadReply: ControlReplyBody {
    public var reloaded: Bool
    /// Diagnostics as `file:line:column: warning: …`, one per element.
    public var warnings: [String]

    public init(reloaded: Bool = true, warnings: [String]) {
        self.reloaded = reloaded
        self.warnings = warnings
    }

    public init(json: JSONValue) throws(ControlReplyError) {
        let object = try ControlReplyObject(json, at: "")
        reloaded = try object.bool("reloaded")
        warnings = try object.strings("warnings")
    }

    public var json: JSONValue { ["reloaded": .bool(reloaded), "warnings": .array(warnings.map { .string($0) })] }
}

/// `center`: `{"open": true|false, "entries": N}`, whether the panel is
/// open and how many entries it lists (live and history, folded or not).
public struct CenterReply: ControlReplyBody {
    public var open: Bool
    public var entries: Int

    public init(open: Bool, entries: Int) {
        self.open = open
        self.entries = entries
    }

    public init(json: JSONValue) throws(ControlReplyError) {
        let object = try ControlReplyObject(json, at: "")
        open = try object.bool("open")
        entries = try object.count("entries")
    }

    public var json: JSONValue { ["open": .bool(open), "entries": .number(Double(entries))] }
}

/// `focus`: `{"focus": "toast", "id": N}` (the toast with the ring),
/// `{"focus": "center"}` or `{"focus": "none"}` (the user's window has
/// the keyboard: released, or nothing was on screen to focus).
public struct FocusReply: ControlReplyBody {
    public var focus: KeyboardFocus?

    public init(focus: KeyboardFocus?) {
        self.focus = focus
    }

    public init(json: JSONValue) throws(ControlReplyError) {
        let object = try ControlReplyObject(json, at: "")
        switch try object.string("focus") {
        case "toast": focus = .toast(try object.notificationID("id"))
        case "center": focus = .center
        case "none": focus = nil
        default: throw ControlReplyError("\(object.path(of: "focus")) must be toast, center or none")
        }
    }

    public var json: JSONValue {
        switch focus {
        case .toast(let id): ["focus": .string("toast"), "id": .number(Double(id))]
        case .center: ["focus": .string("center")]
        case nil: ["focus": .string("none")]
        }
    }
}
