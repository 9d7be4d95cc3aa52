import CCairo
import PerchCore

/// A card's progress bar (the `value` hint): a pill-shaped track with the
/// filled part drawn over it from the left. Where it goes is
/// `ToastGeometry`'s business.
///
/// The bar spans the card inside its padding, like a row of buttons, not
/// just the text column: it sits below the icon as well as the text, so it
/// lines up with the buttons under it, and every toast's bar has the same
/// length (a percentage reads the same with or without an icon).
enum ProgressBar {
    /// The track's alpha as a share of `progressColor`'s: faint enough that
    /// the filled part stands out, visible enough to show where 100 % is.
    static let trackAlpha = 0.25
}

extension Pen {
    /// Paints the bar for `percent` (clamped to 0...100) with its top at
    /// `y`, card-local surface pixels.
    func progressBar(_ percent: Int, style: ToastStyle, y: Int) {
        let fraction = Double(min(max(percent, 0), 100)) / 100
        // Ends on whole buffer pixels, as the card's.
        let x = snap(Double(style.paddingEdges.left)), top = snap(Double(y))
        let width = snap(Double(style.paddingEdges.left + style.buttonRowWidth)) - x
        let height = snap(Double(y + style.progressHeight)) - top
        guard width > 0, height > 0 else { return }
        // CardShape with no border: a rounded rectangle whose corner
        // radius is capped at half the height (and half the width), a pill.
        cairo_save(cairo)
        cairo_translate(cairo, x, top)
        CardShape.addPath(to: cairo, width: width, height: height, cornerRadius: height / 2, borderWidth: 0)
        var track = style.progressColor
        track.alpha *= ProgressBar.trackAlpha
        setSource(track)
        // The filled part stays inside the track's rounded ends, even when
        // it is narrower than one of them (a few percent).
        cairo_fill_preserve(cairo)
        cairo_clip(cairo)

        let filled = width * fraction
        if filled > 0 {
            CardShape.addPath(to: cairo, width: filled, height: height, cornerRadius: height / 2, borderWidth: 0)
            setSource(style.progressColor)
            cairo_fill(cairo)
        }
        cairo_restore(cairo)
    }
}
