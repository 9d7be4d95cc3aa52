/// A colour with straight (not premultiplied) components in 0...1.
public struct RGBA: Equatable, Sendable {
    public var red: Double
    public var green: Double
    public var blue: Double
    public var alpha: Double

    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    public static let white = RGBA(red: 1, green: 1, blue: 1)
    public static let black = RGBA(red: 0, green: 0, blue: 0)
}

/// How a toast card looks. All lengths are in surface-local (logical)
/// pixels; the renderer multiplies them by the buffer scale.
public struct ToastStyle: Equatable, Sendable {
    public var width = 300
    /// Space between the card's edge and its contents, per side (mako's
    /// `padding=8,12`, like CSS).
    public var paddingEdges = Margins(all: 10)
    public var borderWidth = 2
    public var cornerRadius = 10
    /// The card's total height never exceeds this; the body is ellipsized.
    public var maxHeight = 200
    public var iconSize = 32
    /// Gap between the icon and the text column: horizontal, or vertical
    /// when `iconLocation` is `.top`.
    public var iconGap = 10
    /// Vertical gap between the title and the body.
    public var titleGap = 4
    public var background = RGBA(red: 0, green: 0, blue: 0, alpha: 0.7)
    public var border = RGBA.white
    public var text = RGBA.white
    /// A critical notification's card when no key sets these colours: a
    /// deep red under the same white text, in a bright red border
    /// (#7a0c12d9, #ff4d4d), so that it is told from the others at a glance.
    public static let critical = (background: RGBA(red: 0x7a / 255.0, green: 0x0c / 255.0, blue: 0x12 / 255.0,
                                                   alpha: 0xd9 / 255.0),
                                  border: RGBA(red: 1, green: 0x4d / 255.0, blue: 0x4d / 255.0))
    /// Pango font descriptions.
    public var titleFont = "Sans Bold 11"
    public var bodyFont = "Sans 10"

    // Action buttons (see `ButtonLayout`). Their labels use `bodyFont` and
    // the `text` colour.
    /// Height of one button, surface pixels.
    public var buttonHeight = 24
    /// Gap between two buttons in a row, and between two rows.
    public var buttonSpacing = 6
    /// Gap between the text (or icon) above and the first row of buttons.
    public var buttonTopGap = 8
    /// Room either side of a label inside its button.
    public var buttonPadding = 10
    /// No button is narrower than this (unless the whole row is).
    public var buttonMinWidth = 60
    public var buttonCornerRadius = 5
    public var buttonBackground = RGBA(red: 1, green: 1, blue: 1, alpha: 0.15)
    /// The background of the button under the pointer.
    public var buttonHoverBackground = RGBA(red: 1, green: 1, blue: 1, alpha: 0.3)
    /// The buttons' 1 px border: half as strong as the card's, so a row of
    /// buttons does not outshine the text, and the opaque focus ring stands out.
    public var buttonBorder = RGBA(red: 1, green: 1, blue: 1, alpha: 0.5)
    /// The 2 px ring around the button that has the keyboard focus.
    public var buttonFocusRing = RGBA.white

    // The progress bar (`ToastContent.progress`): under the body and the
    // icon, as wide as a row of buttons, with `buttonTopGap` above it.
    /// The filled part; the track is the same colour at a quarter of its alpha.
    public var progressColor = RGBA(red: 1, green: 1, blue: 1, alpha: 0.6)
    /// Height of the bar, surface pixels; its ends are rounded by half of it.
    /// 0 or less draws no bar.
    public var progressHeight = 6

    // The reply field (`ToastContent.reply`): the card's last row, as wide
    // as a row of buttons, with `buttonTopGap` above it. It is drawn like a
    // button (background, border, corner radius, focus ring) and its text
    // is in `bodyFont`, `buttonPadding` in from its ends.
    /// Height of the field, surface pixels: room for one line of the body
    /// font with the text cursor and a little air.
    public var replyFieldHeight = 28

    /// Whether bodies are Pango markup (the spec's body-markup: `<b>`, `<i>`,
    /// `<u>`, `<a>`, `<img>`); false shows `<` and `&` as they are. Titles
    /// are always plain text.
    public var markup = true

    /// Where the icon sits on a card: top-left (`.left`), top-right
    /// (`.right`, the text column to its left) or centred above the text
    /// (`.top`, the text then uses the full width). Banners ignore it.
    public var iconLocation: IconLocation = .left
    /// How the title's and body's lines are aligned within the text column.
    /// Banners ignore it (their text is centred).
    public var textAlignment: TextAlignment = .left
    /// The body wraps at words (`text-wrap`); without, each of its lines is
    /// one line on the card, cut where `ellipsis` says.
    public var wrap = true
    /// Where a line too long for the card loses its middle, start or end
    /// to an ellipsis ("…"): the title, a body line that does not wrap,
    /// and the last line of a body cut at `maxHeight`.
    public var ellipsis: TextEllipsis = .end

    public init() {}

    /// One padding for every side: reading gives the largest side (what
    /// banners, the marker and the center, which pad alike, use); setting
    /// sets all four.
    public var padding: Int {
        get { max(paddingEdges.top, paddingEdges.right, paddingEdges.bottom, paddingEdges.left) }
        set { paddingEdges = Margins(all: newValue) }
    }

    /// Width available to the text column, in surface pixels.
    /// With `iconLocation == .top` the icon is above the text, which then
    /// has the full width inside the padding.
    public func textWidth(hasIcon: Bool) -> Int {
        width - paddingEdges.left - paddingEdges.right - (hasIcon && iconLocation != .top ? iconSize + iconGap : 0)
    }

    /// Width of a row of action buttons, in surface pixels: the whole card
    /// inside the padding, under the icon too (see `ButtonLayout`).
    public var buttonRowWidth: Int { width - paddingEdges.left - paddingEdges.right }
}

/// What a toast shows: the parts of a notification that reach the pixels.
public struct ToastContent: Equatable, Sendable {
    public var title: String
    public var body: String
    /// Path of a PNG image drawn where `style.iconLocation` puts it, scaled to `iconSize`.
    public var iconPath: String?
    /// The notification whose kept copy of the picture at `iconPath`
    /// stands in for the file (`KeptIcon`: a temporary file its sender
    /// deleted); nil = the file alone.
    public var iconOwner: UInt32?
    /// Buttons drawn under the body, in order. The `default` action is
    /// never among them (clicking the card invokes it), nor `inline-reply`
    /// when the card has a reply field (see `leaveOutReplyButton`).
    public var buttons: [NotificationAction]
    /// Pixels sent with the notification (D-Bus image-data); drawn where
    /// the icon goes, in preference to `iconPath`.
    public var image: ToastImage?
    /// A progress bar under the body, 0...100; nil = none.
    public var progress: Int?
    /// The reply field at the bottom (a notification that offers
    /// `inline-reply`); nil = none.
    public var reply: ReplyField?
    /// The keyboard's focus ring is on the toast (`perchctl focus`): drawn
    /// round the card, inside its edge.
    public var hasFocusRing = false

    public init(title: String, body: String = "", iconPath: String? = nil,
                buttons: [NotificationAction] = [], image: ToastImage? = nil, progress: Int? = nil,
                reply: ReplyField? = nil) {
        self.title = title
        self.body = body
        self.iconPath = iconPath
        self.buttons = buttons
        self.image = image
        self.progress = progress
        self.reply = reply
    }

    /// `buttons` without the `inline-reply` action when the toast has a
    /// reply field: the field is that action (Return sends), so a "Reply"
    /// button beside it would only repeat it. Without a field the button
    /// stays, the one way to answer from the toast.
    public mutating func leaveOutReplyButton() {
        guard reply != nil else { return }
        buttons.removeAll { $0.id == NotificationAction.inlineReplyID }
    }
}

/// An image given as pixels: RGBA, 8 bits per channel, straight (not
/// premultiplied) alpha, rows packed (`width * 4` bytes each).
public struct ToastImage: Equatable, Sendable {
    public var width: Int
    public var height: Int
    public var rgba: [UInt8]

    /// Nil when the sizes do not add up.
    public init?(width: Int, height: Int, rgba: [UInt8]) {
        guard width > 0, height > 0, width <= 4096, height <= 4096, rgba.count == width * height * 4 else {
            return nil
        }
        self.width = width
        self.height = height
        self.rgba = rgba
    }
}
