import CCairo
import PerchCore
import PerchRender
import Testing

/// Whole toasts, a banner and a marker compared with reviewed images, so that changes to the look
/// are seen. Re-record with `PERCH_RECORD_GOLDEN=1 swift test --filter PerchRenderTests`
/// and look at the PNGs before committing them.
@Suite("Golden images of whole toasts")
struct GoldenImageTests {
    @Test("a short toast: title and one line of body")
    func short() {
        let toast = render(ToastContent(title: "Build finished", body: "perch compiled in 42 s."))
        #expect(toast.diagnostics.isEmpty)
        Golden.check(toast.canvas, named: "short")
    }

    @Test("a toast with an icon and a body that wraps")
    func wrappedWithIcon() {
        let scratch = ScratchDirectory()
        let icon = drawTestIcon(in: scratch)
        let toast = render(ToastContent(
            title: "Ada Lovelace",
            body: "The Analytical Engine weaves algebraic patterns just as the Jacquard loom weaves flowers and leaves.",
            iconPath: icon))
        #expect(toast.diagnostics.isEmpty)
        Golden.check(toast.canvas, named: "wrapped-icon")
    }

    @Test("a toast whose title and body are both too long: ellipsized at the maximum height")
    func long() {
        let toast = render(ToastContent(
            title: String(repeating: "A very long title that keeps going ", count: 6),
            body: sentences(100)))
        #expect(toast.geometry.height == ToastStyle().maxHeight)
        Golden.check(toast.canvas, named: "long")
    }

    @Test("a toast with two action buttons, the second hovered")
    func yesNoButtons() {
        let toast = render(ToastContent(title: "Delete 3 files?", body: "They will be gone for good.",
                                        buttons: [NotificationAction(id: "yes", label: "Yes"),
                                                  NotificationAction(id: "no", label: "No")]),
                           highlight: ButtonHighlight(hovered: "no"))
        #expect(toast.diagnostics.isEmpty)
        Golden.check(toast.canvas, named: "buttons-yes-no")
    }

    @Test("a toast with an icon and buttons wrapping to three rows, one focused, one label ellipsized")
    func wrappingButtons() {
        let scratch = ScratchDirectory()
        let labels = ["Reply", "Mark as read", "Archive", "Snooze 10 minutes", "Open", "Mute",
                      "Forward this conversation to everyone on the mailing list"]
        let toast = render(ToastContent(title: "Grace Hopper", body: "Found the bug: a moth in relay 70.",
                                        iconPath: drawTestIcon(in: scratch),
                                        buttons: labels.map { NotificationAction(id: $0, label: $0) }),
                           highlight: ButtonHighlight(focused: "Archive"))
        #expect(toast.diagnostics.isEmpty)
        Golden.check(toast.canvas, named: "buttons-wrapping")
    }

    @Test("a banner with an icon, a bold title and a body, across a 1280 px output")
    func banner() {
        let scratch = ScratchDirectory()
        let banner = renderBanner(ToastContent(title: "Ada Lovelace", body: "The Analytical Engine weaves algebraic patterns.",
                                               iconPath: drawTestIcon(in: scratch)))
        #expect(banner.diagnostics.isEmpty)
        Golden.check(banner.canvas, named: "banner")
    }

    @Test("a \"+12 more\" marker at scale 2")
    func moreMarker() {
        let marker = renderMoreMarker(count: 12, scale: 2)
        #expect(marker.diagnostics.isEmpty)
        Golden.check(marker.canvas, named: "more-marker")
    }

    @Test("at scale 1.5 (wp_fractional_scale_v1): an icon, a wrapping body, buttons (one focused) and a bar")
    func fractional() {
        let scratch = ScratchDirectory()
        let toast = render(ToastContent(title: "Ada Lovelace", body: "The Analytical Engine weaves algebraic patterns.",
                                        iconPath: drawTestIcon(in: scratch),
                                        buttons: [NotificationAction(id: "reply", label: "Reply"),
                                                  NotificationAction(id: "later", label: "Later")],
                                        progress: 70),
                           scale: 1.5, highlight: ButtonHighlight(hovered: "reply", focused: "later"))
        #expect(toast.diagnostics.isEmpty)
        #expect(toast.canvas.width == 450)
        Golden.check(toast.canvas, named: "fractional-1.5")
    }

    @Test("a toast with image-data pixels as its icon and a 40 % progress bar")
    func imageAndProgress() {
        let toast = render(ToastContent(title: "Downloading", body: "perch-1.0.tar.gz — 4.2 of 10.5 MB",
                                        image: testImageData(), progress: 40))
        #expect(toast.diagnostics.isEmpty)
        Golden.check(toast.canvas, named: "image-progress")
    }

    /// A 48 px image as D-Bus sends it (straight RGBA): a colour ramp in a
    /// disc whose edge fades out, so conversion, scaling and blending show.
    private func testImageData() -> ToastImage {
        let size = 48
        var rgba: [UInt8] = []
        for y in 0..<size {
            for x in 0..<size {
                let (dx, dy) = (Double(x) + 0.5 - 24, Double(y) + 0.5 - 24)
                let distance = (dx * dx + dy * dy).squareRoot()
                let alpha = min(1, max(0, (23 - distance) / 6))
                rgba += [UInt8(40 + 4 * x), UInt8(200 - 3 * y), 230, UInt8((alpha * 255).rounded())]
            }
        }
        return ToastImage(width: size, height: size, rgba: rgba)!
    }
}
