import PerchCore
import PerchPlatform
import PerchRender

/// Icon files read as the daemon reads them.
let iconFiles = IconFiles()

/// A text context for tests, with the test fonts pinned before Pango starts.
func makeText() -> TextContext {
    _ = Fixtures.pinFonts
    return TextContext(iconFiles: iconFiles)
}

/// A card renderer for tests, with the test fonts pinned.
func makeRenderer() -> CardRenderer {
    CardRenderer(text: makeText())
}

extension CardRenderer {
    /// The geometry alone, for tests about sizes (their problems are
    /// pinned by tests of their own).
    func geometry(for content: ToastContent, style: ToastStyle) -> ToastGeometry {
        measure(content, style: style).geometry
    }
}

extension BannerRenderer {
    /// The height alone, for tests about sizes.
    func height(of content: ToastContent, style: ToastStyle) -> Int {
        height(for: content, style: style).height
    }
}

/// Problems as the lines they are told as.
func lines(_ problems: [RenderProblem]) -> [String] {
    problems.map(\.description)
}

/// A toast measured and drawn the way the daemon does it.
struct Rendered {
    var canvas: Canvas
    var geometry: ToastGeometry
    /// What measuring and drawing returned, each problem once (both meet
    /// a bad icon file), as the lines they are told as.
    var diagnostics: [String]
}

func render(_ content: ToastContent, style: ToastStyle = ToastStyle(), scale: Double = 1,
            opacity: Double = 1, highlight: ButtonHighlight = .none, renderer: CardRenderer? = nil) -> Rendered {
    let renderer = renderer ?? makeRenderer()
    let (geometry, measured) = renderer.measure(content, style: style)
    let canvas = Canvas(width: pixels(style.width, scale), height: pixels(geometry.height, scale))
    let drawn = renderer.draw(content, style: style, geometry: geometry, into: canvas.target, scale: scale,
                              opacity: opacity, highlight: highlight)
    return Rendered(canvas: canvas, geometry: geometry,
                    diagnostics: lines(measured + drawn.filter { !measured.contains($0) }))
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
                  scale: Double = 1, opacity: Double = 1, renderer: BannerRenderer? = nil) -> RenderedBanner {
    let renderer = renderer ?? BannerRenderer(text: makeText())
    let (height, measured) = renderer.height(for: content, style: style)
    let canvas = Canvas(width: pixels(width, scale), height: pixels(height, scale))
    let drawn = renderer.draw(content, style: style, width: width, height: height,
                              into: canvas.target, scale: scale, opacity: opacity)
    return RenderedBanner(canvas: canvas, height: height,
                          diagnostics: lines(measured + drawn.filter { !measured.contains($0) }))
}

/// A "+N more" marker drawn into a canvas of exactly its size.
func renderMoreMarker(count: Int, style: ToastStyle = ToastStyle(), scale: Double = 1,
                      renderer: MoreMarkerRenderer? = nil) -> (canvas: Canvas, diagnostics: [String]) {
    let renderer = renderer ?? MoreMarkerRenderer(text: makeText())
    let size = renderer.size(count: count, style: style)
    let canvas = Canvas(width: pixels(size.width, scale), height: pixels(size.height, scale))
    let problems = renderer.draw(count: count, style: style, into: canvas.target, scale: scale)
    return (canvas, lines(problems))
}
