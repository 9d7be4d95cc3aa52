import PerchCore

/// What every renderer shares: the fonts (one Pango context, whose font
/// map holds fontconfig's font list and the glyph and shaping caches),
/// the layouts made from them, the icons (files decoded once, image-data
/// converted once, names looked up in the themes) and the fonts' warm-up.
///
/// One serves the whole daemon, on its one thread; it is not thread-safe.
/// Each renderer (`CardRenderer`, `BannerRenderer`, `MoreMarkerRenderer`,
/// `CenterRenderer`) keeps layouts of its own made here, so that drawing
/// one piece does not throw away another's line breaks.
public final class TextContext {
    // Created on first use: making the font map loads fontconfig's
    // configuration and font list (milliseconds), which a context that is
    // made but not yet used, or a test that sets FONTCONFIG_FILE after
    // making one, should not pay for or see.
    private lazy var fonts = FontContext()
    private let icons: IconCache
    /// Image-data icons, converted and scaled once per toast.
    private let images = ImageDataCache()
    /// Icons of files that may vanish, by notification (`KeptIcon`).
    private let kept: KeptIcons
    /// Gives the locator that finds the file an icon name stands for (the
    /// Icon Theme Specification), asked only when a toast has an icon; nil
    /// = only paths are drawn. The daemon's comes from the config
    /// (`icon-theme`, `icon-path`), made on first use so that an idle
    /// daemon has not touched any of it.
    public var iconLocator: (() -> IconLocator)?

    /// Renders SVG icons through the loop (the daemon's warm helper); nil
    /// = each SVG is rendered by a helper run for it, and waited for. With
    /// one, a piece whose SVG is not rendered yet is drawn without it and
    /// says so with an `iconWaiting` problem; `svgRendered` brings the
    /// image, and the piece is drawn again.
    public var svgRenderer: (any SVGRendering)? {
        get { icons.svgRenderer }
        set { icons.svgRenderer = newValue }
    }

    /// The SVG renderer's outcome for `ticket`; false when no icon here
    /// waited for it.
    @discardableResult
    public func svgRendered(ticket: UInt32, outcome: SVGRenderOutcome) -> Bool {
        icons.rendered(ticket: ticket, outcome: outcome)
    }

    /// - Parameter iconFiles: opens and reads icon files (the daemon's is
    ///   Platform's `IconFiles`, which reads through `RegularFile`).
    public init(iconFiles: any IconFileReader) {
        icons = IconCache(capacity: 16, files: iconFiles)
        kept = KeptIcons(files: iconFiles)
    }

    // MARK: Icons that outlive their files

    /// Where kept icons are written and read back (the daemon's directory
    /// beside the state file); nil = they are kept in memory only.
    public var keptIconShelf: (any KeptIconShelf)? {
        get { kept.shelf }
        set { kept.shelf = newValue }
    }

    /// Reads the file `KeptIcon.file(of:)` names for the notification
    /// `content.iconOwner` now, fitted to `iconSize` × `scale` (the largest
    /// scale it may be drawn at), and keeps its pixels for the
    /// notification, whose file may be gone by the time it is drawn (see
    /// `KeptIcons`). When the file cannot be read (gone already), what was
    /// kept for it stands; a file that was rewritten (a script's
    /// `/tmp/cover.png` for the next song) is kept anew. An SVG is not
    /// kept: the helper renders it later, from the file.
    public func keepIcon(of content: ToastContent, iconSize: Int, scale: Double) {
        guard iconSize > 0, let id = content.iconOwner, content.image == nil,
              let text = content.iconPath, let path = KeptIcon.file(named: text) else { return }
        // The icon cache stats the file: an unchanged one is not decoded
        // again, and the same decoded icon is not kept (nor written) twice.
        guard case .success(let icon) = icons.icon(at: path, box: Pen.pixels(iconSize, scale)) else { return }
        kept.keep(icon, id: id, path: path)
    }

    /// Drops the kept icons of the notifications `isGone` says have left.
    public func forgetKeptIcons(where isGone: (UInt32) -> Bool) {
        kept.forget(where: isGone)
    }

    /// How many kept icons are held in memory, and their bytes (for tests
    /// and `status`).
    public var keptIconsHeld: (count: Int, bytes: Int) { (kept.count, kept.bytes) }

    /// A new layout of this context's fonts; the caller owns the reference.
    func makeLayout() -> OpaquePointer {
        fonts.makeLayout()
    }

    /// Loads fontconfig's configuration and font list and matches `style`'s
    /// fonts, by laying out a sample title and body in a layout made for
    /// the purpose: the milliseconds the first notification would
    /// otherwise wait for. The fonts stay matched in the font map, for
    /// every renderer's layouts. Returns what is wrong with the fonts (none
    /// found at all), so that start-up and each reload can say it.
    @discardableResult
    public func warmUp(style: ToastStyle) -> [RenderProblem] {
        let sample = TextBlock(layout: makeLayout(), role: .body)
        for (font, text) in [(style.titleFont, "Perch"), (style.bodyFont, "ready")] {
            sample.setFont(font)
            sample.setWidth(style.textWidth(hasIcon: false))
            sample.setText(text, format: .plain)
            _ = sample.height
        }
        return fonts.problem(for: style.bodyFont).map { [RenderProblem(.fonts, $0)] } ?? []
    }

    /// Whether a card has an icon, without converting image-data (that
    /// waits for drawing, which knows the buffer scale); an icon that
    /// cannot be loaded counts as none.
    func hasIcon(_ content: ToastContent, style: ToastStyle) -> (Bool, [RenderProblem]) {
        guard style.iconSize > 0 else { return (false, []) }
        if content.image != nil { return (true, []) }
        let (icon, problems) = icon(for: content, style: style, scale: 1)
        return (icon != nil, problems)
    }

    /// The icon fitted to `round(iconSize × scale)` buffer pixels: the
    /// image-data pixels if the notification has them, else the file at
    /// `iconPath` (a path, a file:// URI or a name looked up in the themes);
    /// nil, with the problems that say why, when there is none or it cannot
    /// be used. A notification with both is drawn with its pixels and the
    /// path is not even looked at: the spec ranks image-data above
    /// image-path, and a sender that gives pixels means them.
    func icon(for content: ToastContent, style: ToastStyle, scale: Double) -> (ScaledIcon?, [RenderProblem]) {
        guard style.iconSize > 0 else { return (nil, []) }
        let box = Pen.pixels(style.iconSize, scale)
        if let image = content.image {
            switch images.icon(for: image, box: box) {
            case .success(let icon):
                return (icon, [])
            case .failure(let error):
                return (nil, [RenderProblem(.imageData(width: image.width, height: image.height), "\(error)")])
            }
        }
        guard let text = content.iconPath, !text.isEmpty else { return (nil, []) }
        // A file whose picture was kept as the notification came is drawn
        // from the kept pixels (read back from disk after a restart), the
        // file not looked at: it may be gone, or hold another picture now.
        var keptDamage: KeptIcons.Damage?
        if let owner = content.iconOwner, let keptFile = KeptIcon.file(named: text) {
            if let icon = kept.icon(for: owner, path: keptFile, box: box) { return (icon, []) }
            switch kept.readBack(owner, path: keptFile, box: box) {
            case .success(let icon)?: return (icon, [])
            case .failure(let damage)?: keptDamage = damage
            case nil: break
            }
        }
        var path = text
        var colour: RGBA?
        var problems: [RenderProblem] = []
        if let iconLocator = iconLocator?() {
            // A name is looked up in the themes, a path or file:// URI taken
            // as given; the locator returns each of its problems once.
            // Themes have whole-scale directories (@2x): at 1.5 the 2x
            // icon, resampled down to the box, is the sharper choice.
            let resolution = iconLocator.resolve(NotificationIconHints(appIcon: text), size: style.iconSize,
                                                 scale: Int(scale.rounded(.up)))
            problems = resolution.diagnostics.map { RenderProblem(.iconLookup, $0.message) }
            guard case .file(let file)? = resolution.icon else { return (nil, problems) }
            path = file.path
            // Symbolic icons are drawn in the text's colour.
            if file.isSymbolic { colour = style.text }
        } else if !text.hasPrefix("/") {
            return (nil, [])
        }
        switch icons.icon(at: path, box: box, colour: colour) {
        case .success(let icon):
            return (icon, problems + (keptDamage.map { [RenderProblem(.iconFile(path), "\($0)")] } ?? []))
        case .failure(.rendering):
            return (nil, problems + [RenderProblem(.iconWaiting(path), "being rendered")])
        case .failure(.renderRefused(.busy(let limit))):
            // One line for every icon left out, whichever file: the log's
            // throttle then counts them.
            return (nil, problems + [RenderProblem(.iconLookup, "\(SVGRenderRefusal.busy(limit: limit))")])
        case .failure(let error):
            // One line for the file and its damaged copy together.
            let also = keptDamage.map { ", and \($0)" } ?? ""
            return (nil, problems + [RenderProblem(.iconFile(path), "\(error)\(also)")])
        }
    }
}
