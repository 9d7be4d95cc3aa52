import CCairo
import PerchCore

/// Puts the notification center's pieces together into the panel's buffer
/// for one frame. Each piece (the background, the top bar, every header
/// and entry) is rendered once into its own image; scrolling only puts
/// them at other places, so a frame costs copies, not text layout.
public enum PanelCompositor {
    /// One rendered piece and where its top-left corner goes, in buffer
    /// pixels. A `clipped` piece shows only below `listTop`: the list
    /// scrolls under the top bar, not over it.
    public struct Layer {
        public var image: PixelTarget
        public var x: Int
        public var y: Int
        public var clipped: Bool

        public init(image: PixelTarget, x: Int, y: Int, clipped: Bool) {
            self.image = image
            self.x = x
            self.y = y
            self.clipped = clipped
        }
    }

    /// The keyboard's focus ring around one entry: a rounded outline, in
    /// surface pixels at `scale`.
    public struct Ring {
        public var x, y, width, height: Double
        public var radius: Double
        public var colour: RGBA
        public var lineWidth: Double
        public var scale: Double

        public init(x: Double, y: Double, width: Double, height: Double, radius: Double, colour: RGBA,
                    lineWidth: Double, scale: Double) {
            self.x = x
            self.y = y
            self.width = width
            self.height = height
            self.radius = radius
            self.colour = colour
            self.lineWidth = lineWidth
            self.scale = scale
        }
    }

    /// Clears `target` and draws the layers over each other in order
    /// (premultiplied alpha, Cairo's OVER), the clipped ones only in the
    /// rows from `listTop` down; then the focus ring, clipped the same way.
    public static func compose(_ layers: [Layer], listTop: Int, ring: Ring? = nil, into target: PixelTarget) {
        guard let surface = surface(for: target) else { return }
        defer { cairo_surface_destroy(surface) }
        let cairo = cairo_create(surface)!
        defer { cairo_destroy(cairo) }
        cairo_set_operator(cairo, CAIRO_OPERATOR_CLEAR)
        cairo_paint(cairo)
        cairo_set_operator(cairo, CAIRO_OPERATOR_OVER)
        for layer in layers {
            guard layer.y < target.height, layer.y + layer.image.height > (layer.clipped ? listTop : 0),
                  let source = self.surface(for: layer.image) else { continue }
            cairo_save(cairo)
            if layer.clipped {
                cairo_rectangle(cairo, 0, Double(listTop), Double(target.width), Double(max(0, target.height - listTop)))
                cairo_clip(cairo)
            }
            cairo_set_source_surface(cairo, source, Double(layer.x), Double(layer.y))
            cairo_paint(cairo)
            cairo_restore(cairo)
            cairo_surface_destroy(source)
        }
        if let ring {
            cairo_save(cairo)
            cairo_rectangle(cairo, 0, Double(listTop), Double(target.width), Double(max(0, target.height - listTop)))
            cairo_clip(cairo)
            cairo_scale(cairo, ring.scale, ring.scale)
            let r = min(ring.radius, ring.width / 2, ring.height / 2)
            let (x, y, w, h) = (ring.x, ring.y, ring.width, ring.height)
            cairo_new_sub_path(cairo)
            cairo_arc(cairo, x + w - r, y + r, r, -Double.pi / 2, 0)
            cairo_arc(cairo, x + w - r, y + h - r, r, 0, Double.pi / 2)
            cairo_arc(cairo, x + r, y + h - r, r, Double.pi / 2, Double.pi)
            cairo_arc(cairo, x + r, y + r, r, Double.pi, 3 * Double.pi / 2)
            cairo_close_path(cairo)
            cairo_set_source_rgba(cairo, ring.colour.red, ring.colour.green, ring.colour.blue, ring.colour.alpha)
            cairo_set_line_width(cairo, ring.lineWidth)
            cairo_stroke(cairo)
            cairo_restore(cairo)
        }
        cairo_surface_flush(surface)
    }

    private static func surface(for target: PixelTarget) -> OpaquePointer? {
        let surface = cairo_image_surface_create_for_data(target.base.assumingMemoryBound(to: UInt8.self),
                                                          CAIRO_FORMAT_ARGB32, Int32(target.width),
                                                          Int32(target.height), Int32(target.stride))
        guard let surface, cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            if let surface { cairo_surface_destroy(surface) }
            return nil
        }
        return surface
    }
}
