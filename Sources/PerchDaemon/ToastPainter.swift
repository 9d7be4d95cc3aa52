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
final class ToastPainter {
    let renderer = ToastRenderer()

    /// Where icon names are looked up (see `ToastRenderer.iconLocator`).
    var iconLocator: (() -> IconLocator)? {
        get { renderer.iconLocator }
        set { renderer.iconLocator = newValue }
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
        switch view.lane {
        case .stack:
            geometry = renderer.geometry(for: view.content, style: view.style)
        case .banner:
            geometry = ToastGeometry(height: renderer.bannerHeight(for: view.content, style: view.style))
        }
        logDiagnostics(of: view)
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
        switch view.lane {
        case .stack:
            renderer.draw(view.content, style: view.style, geometry: geometry(of: view), into: target,
                          scale: scale.factor, highlight: view.highlight)
        case .banner:
            renderer.drawBanner(view.content, style: view.style, width: width, height: geometry(of: view).height,
                                into: target, scale: scale.factor)
        }
        logDiagnostics(of: view)
    }

    // MARK: The "+N more" marker

    /// Height of the marker, surface pixels (two digits' worth: the count
    /// does not change it).
    var markerHeight: Int { renderer.moreMarkerSize(count: 9, style: style).height }

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
        let size = renderer.moreMarkerSize(text: text, style: style)
        let backing = scale.backing(width: size.width, height: size.height)
        do {
            let buffer = try marker.surface.freeBuffer(width: backing.bufferWidth, height: backing.bufferHeight)
            renderer.drawMoreMarker(text: text, style: style,
                                    into: PixelTarget(base: buffer.pixels, width: buffer.width,
                                                      height: buffer.height, stride: buffer.stride),
                                    scale: scale.factor)
            marker.surface.present(buffer, scale: scale, width: backing.surfaceWidth, height: backing.surfaceHeight)
            marker.drawn = drawn
            marker.width = size.width
        } catch {
            Log.error("cannot allocate a buffer for the marker: \(error)")
        }
    }

    private func logDiagnostics(of view: ToastView) {
        for problem in renderer.diagnostics where view.toldProblems.insert(problem).inserted {
            Log.warning(problem)
        }
    }
}
