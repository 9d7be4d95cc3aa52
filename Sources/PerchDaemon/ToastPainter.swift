import PerchCore
import PerchPlatform
import PerchRender
import PerchWayland

/// Turns views into pixels on their surfaces: measures a toast once per
/// content, draws it into a buffer the compositor does not hold, and fades
/// it — with wp_alpha_modifier_v1 by the compositor's multiplier over the
/// one full-opacity buffer, otherwise by copying one full-opacity rendering
/// at each alpha. Knows nothing of stages or frames; the scene says what
/// to draw and when.
///
/// What measuring and drawing meet (bad markup, an icon that cannot be
/// read) is told by `teller`, once per notification however often its
/// toast is drawn; the center's panel tells its pieces' problems there too.
final class ToastPainter {
    /// The fonts, layouts and icons every renderer here shares.
    let text = TextContext(iconFiles: IconFiles())
    private lazy var cards = CardRenderer(text: text)
    private lazy var banners = BannerRenderer(text: text)
    private lazy var markers = MoreMarkerRenderer(text: text)
    /// The center's pieces; its entries are drawn by the toasts' card renderer.
    private(set) lazy var centerRenderer = CenterRenderer(cards: cards)
    /// The one place render problems are told.
    let teller = ProblemTeller { Log.throttledWarning($0, cause: $1) }

    /// Where icon names are looked up (see `TextContext.iconLocator`).
    var iconLocator: (() -> IconLocator)? {
        get { text.iconLocator }
        set { text.iconLocator = newValue }
    }
    /// The default look (the marker's); its width is every stack toast's.
    var style: ToastStyle

    init(style: ToastStyle) {
        self.style = style
    }

    /// The view's layout for its lane, measured once per content.
    func geometry(of view: ToastView) -> ToastGeometry {
        if let geometry = view.geometry { return geometry }
        let geometry: ToastGeometry
        let problems: [RenderProblem]
        switch view.lane {
        case .stack:
            (geometry, problems) = cards.measure(view.content, style: view.style)
        case .banner:
            let measured = banners.height(for: view.content, style: view.style)
            (geometry, problems) = (ToastGeometry(height: measured.height), measured.problems)
        }
        teller.tell(problems, about: .notification(view.id))
        if problems.contains(where: \.isWaiting) { view.awaitsIcon = true }
        view.geometry = geometry
        return geometry
    }

    /// Draws the view's copy at `opacity` and `scale` and hands the buffer
    /// to its surface, applied with the stage's next commit. A banner is as
    /// wide as its stage; a stack toast as wide as the style says. Where
    /// the compositor can fade a surface, a change of opacity alone draws
    /// nothing.
    func paint(_ view: ToastView, _ copy: ToastCopy, opacity: Double, stageWidth: Int, scale: SurfaceScale) {
        if copy.surface.canSetOpacity {
            if copy.isStale {
                guard draw(view, copy, opacity: 1, stageWidth: stageWidth, scale: scale) else { return }
            }
            copy.surface.setOpacity(opacity)
            copy.drawnOpacity = opacity
            return
        }
        guard draw(view, copy, opacity: opacity, stageWidth: stageWidth, scale: scale) else { return }
        copy.drawnOpacity = opacity
    }

    /// Draws into a free buffer of the copy's surface and presents it;
    /// false when no buffer could be had.
    private func draw(_ view: ToastView, _ copy: ToastCopy, opacity: Double, stageWidth: Int,
                      scale: SurfaceScale) -> Bool {
        let surface = copy.surface
        let width = view.lane == .banner ? stageWidth : style.width
        let height = geometry(of: view).height
        let backing = scale.backing(width: width, height: height)
        let buffer: ShmBuffer
        do {
            buffer = try surface.freeBuffer(width: backing.bufferWidth, height: backing.bufferHeight)
        } catch {
            Log.error("cannot allocate a buffer for a toast: \(error)")
            return false
        }
        let target = PixelTarget(base: buffer.pixels, width: buffer.width, height: buffer.height,
                                 stride: buffer.stride)
        if opacity >= 1 {
            copy.master = nil
            render(view, width: width, into: target, scale: scale)
        } else {
            // Fading: lay the card out once, then copy it at each opacity.
            let master: PixelImage
            if let kept = copy.master, !copy.isStale, kept.width == buffer.width, kept.height == buffer.height {
                master = kept
            } else {
                master = PixelImage(width: buffer.width, height: buffer.height)
                render(view, width: width, into: master.target, scale: scale)
                copy.master = master
            }
            target.copy(from: master.target, opacity: max(0, opacity))
        }
        surface.present(buffer, scale: scale, width: backing.surfaceWidth, height: backing.surfaceHeight)
        copy.isStale = false
        return true
    }

    private func render(_ view: ToastView, width: Int, into target: PixelTarget, scale: SurfaceScale) {
        let problems: [RenderProblem]
        switch view.lane {
        case .stack:
            problems = cards.draw(view.content, style: view.style, geometry: geometry(of: view), into: target,
                                  scale: scale.factor, highlight: view.highlight)
        case .banner:
            problems = banners.draw(view.content, style: view.style, width: width, height: geometry(of: view).height,
                                    into: target, scale: scale.factor)
        }
        teller.tell(problems, about: .notification(view.id))
        if problems.contains(where: \.isWaiting) { view.awaitsIcon = true }
    }

    /// Loads the fonts of `style` ahead of the first notification.
    func warmUp(style: ToastStyle) {
        // Told at start-up and at each reload (through the throttle: a
        // burst of reloads says it once).
        for problem in text.warmUp(style: style) { Log.throttledWarning("\(problem)") }
    }

    // MARK: The "+N more" marker

    /// Height of the marker, surface pixels (two digits' worth: the count
    /// does not change it).
    var markerHeight: Int { markers.size(count: 9, style: style).height }

    /// Draws the marker with `text` in the colours of `look` (its font,
    /// border and padding are the default look's, which its height was
    /// measured with) unless it shows that already.
    func paint(_ marker: MarkerView, text: String, colours look: ToastStyle, scale: SurfaceScale) {
        var style = self.style
        style.background = look.background
        style.text = look.text
        style.border = look.border
        let drawn = MarkerView.Drawn(text: text, style: style)
        guard marker.drawn != drawn else { return }
        let size = markers.size(text: text, style: style)
        let backing = scale.backing(width: size.width, height: size.height)
        do {
            let buffer = try marker.surface.freeBuffer(width: backing.bufferWidth, height: backing.bufferHeight)
            let problems = markers.draw(text: text, style: style,
                                        into: PixelTarget(base: buffer.pixels, width: buffer.width,
                                                          height: buffer.height, stride: buffer.stride),
                                        scale: scale.factor)
            teller.tell(problems, about: .marker)
            marker.surface.present(buffer, scale: scale, width: backing.surfaceWidth, height: backing.surfaceHeight)
            marker.drawn = drawn
            marker.width = size.width
        } catch {
            Log.error("cannot allocate a buffer for the marker: \(error)")
        }
    }
}
