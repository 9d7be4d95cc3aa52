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
    /// The draw call's diagnostics.
    var diagnostics: [String]
}

func render(_ content: ToastContent, style: ToastStyle = ToastStyle(), scale: Int = 1,
            opacity: Double = 1, renderer: ToastRenderer? = nil) -> Rendered {
    let renderer = renderer ?? makeRenderer()
    let geometry = renderer.geometry(for: content, style: style)
    let canvas = Canvas(width: style.width * scale, height: geometry.height * scale)
    renderer.draw(content, style: style, geometry: geometry, into: canvas.target, scale: scale, opacity: opacity)
    return Rendered(canvas: canvas, geometry: geometry, diagnostics: renderer.diagnostics)
}

/// Text long enough to overflow any card.
func sentences(_ count: Int) -> String {
    (1...count).map { "Sentence number \($0) says a little more than the one before." }.joined(separator: " ")
}
