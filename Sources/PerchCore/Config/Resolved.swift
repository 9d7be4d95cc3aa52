/// Everything the config says about one notification: the built-in
/// defaults, then the global keys, then each matching section in file
/// order (later sections win). `Config.global` is the same without any
/// section, for what applies to the daemon as a whole.
///
/// Units follow the core types, not the file: the file gives durations in
/// milliseconds (like mako), `stack.timing`, `displayTime` and
/// `hookTimeout` hold seconds.
public struct Resolved: Equatable, Sendable {
    // MARK: Look (any section)

    /// Card geometry, colours and fonts. `style.width` is the global `width`.
    public var style = ToastStyle()
    /// Colour of the progress bar (the `value` hint).
    public var progressColor = ToastStyle().progressColor
    /// Icons are never drawn larger than this; `style.iconSize` is already
    /// capped by it.
    public var maxIconSize = 64
    public var iconLocation = IconLocation.left
    /// Whether icons are drawn at all (mako's `icons`); off, the card has
    /// no icon box.
    public var icons = true
    /// Icon themes to look names up in, first first (`icon-theme`); empty
    /// = the user's GTK theme, else Adwaita. hicolor always ends the chain.
    public var iconThemes: [String] = []
    /// Directories searched for icons before any theme (`icon-path`).
    public var iconPath: [String] = []
    public var textAlignment = TextAlignment.left
    public var format = ToastFormat.standard
    /// Pango markup in `format` and in bodies is interpreted.
    public var markup = true
    /// What becomes of the markup in a body while `markup` is on
    /// (`markup=strip`, `markup=escape`; dunst's `strip` and `no`).
    public var bodyMarkup = BodyMarkup.keep

    // MARK: Placement and motion (any section)

    public var kind = NotificationKind.toast
    /// Entry and exit; nil = slide from the edge nearest the anchor (the top
    /// edge for banners). `motion` resolves that.
    public var enter: Transition?
    public var exit: Transition?
    public var bounce = false

    // MARK: Timing (any section)

    /// The display time, in milliseconds, a notification of this urgency
    /// gets when the sender gives none (or always, with `ignore-timeout`);
    /// 0 = until dismissed.
    public var defaultTimeout = 5_000
    /// How long this notification stays once fully shown, in seconds; nil =
    /// until dismissed. Its own timeout unless `ignore-timeout`; a critical
    /// notification's own timeout is never used (see docs/config.md).
    public var displayTime: Double? = 5

    // MARK: Behaviour (any section)

    public var bindings = Bindings()
    public var hooks = HookCommands()
    /// The actions the config gives (`actions`), in order.
    public var defaultActions: [NotificationAction] = []
    /// The notification's own actions, then each of `defaultActions` whose
    /// id it does not already have.
    public var actions: [NotificationAction] = []
    /// The notification's own `resident`, or true when the config says so.
    public var resident = false
    /// Never shown: straight to history (events are still sent).
    public var invisible = false
    /// Fields compared to form groups; empty = no grouping.
    public var groupBy: [GroupField] = []
    /// The sender's actions are kept (mako's `actions=1`); false drops
    /// them, leaving only the config's own `actions` lists.
    public var senderActions = true
    /// Once gone, the notification is kept in history (mako's `history`).
    public var history = true
    /// What the config changes in the notification itself (its urgency,
    /// category, stack tag, icon…), applied as it arrives.
    public var changes = NotificationChanges()
    /// Programs run with the notification's app name, summary, body, icon
    /// and urgency as arguments when it appears (`script`, dunst's rule
    /// scripts); every matching section adds its own.
    public var scripts: [String] = []
    /// Line breaks in the title and body are shown as spaces.
    public var ignoreNewline = false
    /// A progress bar is drawn for the `value` hint (`progress-bar`).
    public var progressBar = true
    /// How many notifications one app may post within `burstWindow` before
    /// the rest collapse into one toast that counts them (`max-burst`);
    /// 0 = never collapsed.
    public var maxBurst = 10

    // MARK: Sound

    /// What it sounds like (`sound`): the sender's hint by default.
    public var sound = SoundChoice.sender
    /// Percent of full volume its sound plays at (`sound-volume`).
    public var soundVolume = 100

    // MARK: Global only

    /// Anchor (per notification: it chooses the stack), margins, gap,
    /// width, max-visible, order and timing. `stack.timing` holds the
    /// global default timeouts per urgency, except that the slot of this
    /// notification's urgency holds `defaultTimeout`.
    public var stack = StackConfig()
    public var layer = ShellLayer.overlay
    /// Where the stacks go: a named output, the focused one, or all.
    public var output = OutputChoice.focused
    public var maxHistory = History.defaultCapacity
    /// How many notifications may wait off screen, behind the stacks or
    /// held (`max-queued`); past it the oldest go to history.
    public var maxQueued = 20
    /// Seconds over which `maxBurst` counts an app's notifications
    /// (`burst-window`).
    public var burstWindow = 10.0
    /// Seconds before a hook still running is killed.
    public var hookTimeout = 5.0
    /// What a fullscreen window does to non-critical notifications.
    public var fullscreen = FullscreenPolicy.hold
    /// What a share of the screen does to non-critical notifications.
    public var whileSharing = SharingPolicy.hold
    /// When a hold that kept arrivals back ends with at least this many
    /// kept back, one toast says what came in; 0: never.
    public var missedSummary = 3
    /// Whether the accessibility tree is published (screen readers).
    public var accessibility = AccessibilityPolicy.auto
    /// The notification center's panel: edge, width, margins, output.
    public var center = CenterPlacement()
    /// Seconds without input after which display timers stop until the
    /// next input; 0 = never.
    public var idleThreshold = 0.0
    /// Sounds are played at all (`sounds`).
    public var sounds = true
    /// The sound theme names are looked up in (`sound-theme`); nil = GTK's
    /// `gtk-sound-theme-name`, else freedesktop.
    public var soundTheme: String?
    /// Seconds after a sound is asked for during which the next ones are
    /// dropped (`sound-gap`): a burst is heard once.
    public var soundGap = 1.0
    /// A notification brought back from history stays until dismissed
    /// (`sticky-history`, dunst's `sticky_history`).
    public var stickyHistory = false
    /// The dmenu-like program that offers a notification's actions to
    /// choose from (`menu`, dunst's `dmenu`); empty = none.
    public var menu: [String] = []
    /// The "+N more" marker is shown while notifications wait
    /// (`indicate-hidden`).
    public var indicateHidden = true
    /// Seconds after which a toast says how old it is, "(1m 5s old)" at
    /// the end of its text (`show-age-after`, dunst's
    /// `show_age_threshold`); nil = never.
    public var showAgeAfter: Double?

    /// The `summary~`/`body~` patterns that ran out of the step budget on
    /// this notification (and so did not match): the service warns once
    /// per pattern.
    public var patternsGaveUp: [String] = []

    /// The built-in defaults: what an empty config file gives.
    public init() {}

    /// The stack the notification goes to (any section may set it).
    public var anchor: Anchor {
        get { stack.anchor }
        set { stack.anchor = newValue }
    }

    /// `enter` and `exit` with nil resolved to the nearest edge.
    public var motion: Motion {
        let nearest: Transition = kind == .banner ? .slide(.top) : .slide(anchor.nearestEdge)
        return Motion(enter: enter ?? nearest, exit: exit ?? nearest, bounce: bounce)
    }
}
