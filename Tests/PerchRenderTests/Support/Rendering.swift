import PerchCore
import PerchRender

/// A renderer for tests, with the test fonts pinned before Pango starts.
func makeRenderer() -> ToastRenderer {
    _ = Fixtures.pinFonts
    return ToastRenderer()
}

/// A toast measured and drawn the way the daemon does it.
struct Rendered {
    var canvas: Canvas
    var geometry: ToastGeometry
    /// What measuring and drawing reported, each problem once (the
    /// renderer tells a bad icon file once, wherever it meets it first).
    var diagnostics: [String]
}

func render(_ content: ToastContent, style: ToastStyle = ToastStyle(), scale: Double = 1,
            opacity: Double = 1, highlight: ButtonHighlight = .none, renderer: ToastRenderer? = nil) -> Rendered {
    let renderer = renderer ?? makeRenderer()
    let geometry = renderer.geometry(for: content, style: style)
    let measured = renderer.diagnostics
    let canvas = Canvas(width: pixels(style.width, scale), height: pixels(geometry.height, scale))
    renderer.draw(content, style: style, geometry: geometry, into: canvas.target, scale: scale, opacity: opacity,
                  highlight: highlight)
    let drawn = renderer.diagnostics.filter { !measured.contains($0) }
    return Rendered(canvas: canvas, geometry: geometry, diagnostics: measured + drawn)
}

/// `length` surface pixels in buffer pixels at `scale`, as the renderer
/// rounds them.
func pixels(_ length: Int, _ scale: Double) -> Int {
    Int((Double(length) * scale).rounded())
}

/// Text long enough to overflow any card.
func sentences(_ count: Int) -> String {
    (1...count).map { "Sentence number \($0) says a little more than the one before." }.joined(separator: " ")
}

/// A banner measured and drawn the way the daemon does it.
struct RenderedBanner {
    var canvas: Canvas
    /// Surface pixels, from `bannerHeight`.
    var height: Int
    var diagnostics: [String]
}

func renderBanner(_ content: ToastContent, style: ToastStyle = ToastStyle(), width: Int = 1280,
                  scale: Double = 1, opacity: Double = 1, renderer: ToastRenderer? = nil) -> RenderedBanner {
    let renderer = renderer ?? makeRenderer()
    let height = renderer.bannerHeight(for: content, style: style)
    let canvas = Canvas(width: pixels(width, scale), height: pixels(height, scale))
    renderer.drawBanner(content, style: style, width: width, height: height,
                        into: canvas.target, scale: scale, opacity: opacity)
    return RenderedBanner(canvas: canvas, height: height, diagnostics: renderer.diagnostics)
}

/// A "+N more" marker drawn into a canvas of exactly its size.
func renderMoreMarker(count: Int, style: ToastStyle = ToastStyle(), scale: Double = 1,
                      renderer: ToastRenderer? = nil) -> (canvas: Canvas, diagnostics: [String]) {
    let renderer = renderer ?? makeRenderer()
    let size = renderer.moreMarkerSize(count: count, style: style)
    let canvas = Canvas(width: pixels(size.width, scale), height: pixels(size.height, scale))
    renderer.drawMoreMarker(count: count, style: style, into: canvas.target, scale: scale)
    return (canvas, renderer.diagnostics)
}
