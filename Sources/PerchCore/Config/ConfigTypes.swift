// Small value types that only the config gives a name to so far. The
// renderer and the stage surface read them from `Resolved`.

/// Where the icon sits in a toast card.
public enum IconLocation: String, Sendable, CaseIterable {
    case left, right, top
}

/// How the lines of the text column are aligned.
public enum TextAlignment: String, Sendable, CaseIterable {
    case left, center, right
}

/// What becomes of a body's markup when the toast's text is markup
/// (`markup`): the format's own tags are drawn in every case.
public enum BodyMarkup: String, Sendable, CaseIterable {
    /// Drawn as the sender meant it (`markup=true`).
    case keep
    /// The tags go, their text stays (`markup=strip`).
    case strip
    /// Shown as sent, tags as typed (`markup=escape`).
    case escape
}

/// Where a line too long for its room is cut (`ellipsize`).
public enum TextEllipsis: String, Sendable, CaseIterable {
    case start, middle, end
}

/// The wlr-layer-shell layer the notifications' surface is on
/// (`zwlr_layer_shell_v1_layer`). `overlay` is above fullscreen windows.
public enum ShellLayer: String, Sendable, CaseIterable {
    case background, bottom, top, overlay
}

/// Where the stacks go (`output=`).
public enum OutputChoice: Equatable, Sendable {
    /// The compositor's choice: the output focused when a stack's first
    /// toast arrives (the stack stays there while it has toasts).
    case focused
    /// That output by name (`DP-1`); while it is absent, the focused one,
    /// and the stacks move back when it returns.
    case named(String)
    /// The output at this place (0 first) in the order the compositor
    /// announced them (dunst's `monitor = N`); while there are fewer, the
    /// focused one.
    case index(Int)
    /// A copy of every stack on every output; acting on one copy acts on
    /// the notification.
    case all

    /// `focused` and an empty value are the compositor's choice, `all`
    /// every output; anything else names one.
    public init(parsing text: String) {
        switch text {
        case "", "focused": self = .focused
        case "all": self = .all
        default:
            // Output names are never bare numbers (DP-1, eDP-1, HEADLESS-1).
            if text.count <= 3, text.allSatisfy({ ("0"..."9").contains($0) }), let index = Int(text) {
                self = .index(index)
            } else {
                self = .named(text)
            }
        }
    }

    /// The output it names, if it names one.
    public var name: String? {
        if case .named(let name) = self { name } else { nil }
    }
}

/// What a fullscreen window (the focused one, on the output Perch shows
/// its toasts on) does to notifications that are not critical
/// (`fullscreen`; see `NotificationService+Hold`).
/// Which edge the notification center's panel runs along (`center-anchor`).
public enum CenterEdge: String, Sendable, CaseIterable {
    case left, right
}

/// Where the notification center's panel goes and how wide it is.
public struct CenterPlacement: Equatable, Sendable {
    public var edge = CenterEdge.right
    /// Surface pixels.
    public var width = 360
    public var margins = Margins(all: 10)
    public var output = OutputChoice.focused

    public init() {}

    /// Where the panel lies in an area of the output as large as `width` ×
    /// `height` surface pixels (what a layer surface anchored to every edge
    /// is given: the output less the bars' exclusive zones, as the panel
    /// is). A click outside this box closes the center.
    public func panelBox(inAreaWidth width: Int, height: Int) -> FieldBox {
        let panelWidth = min(self.width, max(0, width - margins.left - margins.right))
        let x = edge == .left ? margins.left : width - margins.right - panelWidth
        return FieldBox(x: max(0, x), y: margins.top, width: panelWidth,
                        height: max(0, height - margins.top - margins.bottom))
    }
}

public enum FullscreenPolicy: String, Sendable, CaseIterable {
    /// Nothing: they show over it, as ever.
    case show
    /// They wait off screen, their timers stopped, and show when it ends.
    case hold
    /// They go straight to history, as with do-not-disturb.
    case hide
}

/// What a share of the screen (a screencast or recording: see
/// docs/config.md, "While the screen is shared") does to notifications
/// (`while-sharing`; see `HoldPolicy`).
public enum SharingPolicy: String, Sendable, CaseIterable {
    /// Nothing: they show as ever, and Perch does not look for shares.
    case show
    /// Non-critical ones wait off screen, as under a fullscreen window.
    case hold
    /// Non-critical ones go straight to history.
    case hide
    /// They show, but only their app and "New notification".
    case hideContent = "hide-content"
}

/// When Perch publishes its accessibility tree (`accessibility`; see
/// `PerchAccess`): `auto` follows the session's switch (`org.a11y.Status`),
/// `on` always, `off` never (the accessibility bus is never touched).
public enum AccessibilityPolicy: String, Sendable, CaseIterable {
    case auto, on, off
}

/// Commands run when something happens to a notification: argv, run
/// without a shell (see `CommandWords`); empty = nothing is run.
public struct HookCommands: Equatable, Sendable {
    public var onAppear: [String] = []
    public var onDismiss: [String] = []
    public var onAction: [String] = []

    public init(onAppear: [String] = [], onDismiss: [String] = [], onAction: [String] = []) {
        self.onAppear = onAppear
        self.onDismiss = onDismiss
        self.onAction = onAction
    }
}

/// A property compared between notifications to decide whether they form a
/// group (`group-by`). Named like the criteria they share a meaning with.
public enum GroupField: String, Sendable, CaseIterable {
    case appName = "app-name"
    case summary
    case body
    case urgency
    case category
    case desktopEntry = "desktop-entry"
    case actionable
    case expiring
}
