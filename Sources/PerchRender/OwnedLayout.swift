import CPangoCairo

/// A `PangoLayout` that belongs to one text object (`TextBlock`,
/// `FieldLine`), released with it, and the font last set on it: every
/// `pango_layout_set_*` call throws away the layout's line breaks, so the
/// font reaches Pango only when it changes.
final class OwnedLayout {
    let pointer: OpaquePointer
    private var fontName: String?

    /// Takes over the caller's reference to `pointer`.
    init(_ pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit {
        g_object_unref(UnsafeMutableRawPointer(pointer))
    }

    /// Sets the font from a Pango description such as "Sans Bold 11".
    func setFont(_ name: String) {
        guard name != fontName else { return }
        fontName = name
        setPangoFont(name, on: pointer)
    }
}
