import Testing
import PerchCore

private func image(width: Int, height: Int, pixel: (Int, Int) -> [UInt8]) -> ToastImage {
    var rgba: [UInt8] = []
    for y in 0 ..< height {
        for x in 0 ..< width { rgba += pixel(x, y) }
    }
    return ToastImage(width: width, height: height, rgba: rgba)!
}

@Suite("Notification limits")
struct NotificationLimitsTests {
    @Test("a request within the limits is left as it is")
    func withinLimits() {
        var request = NotifyRequest(title: "Lunch")
        request.body = String(repeating: "b", count: NotificationLimits.maximumBodyLength)
        request.actions = [NotificationAction(id: "default", label: "Open")]
        request.timeout = 0
        request.iconPath = "/usr/share/icons/mail.png"
        let before = request
        #expect(NotificationLimits.bound(&request).isEmpty)
        #expect(request == before)
    }

    @Test("a 9 MB body is cut to 64 KiB, ending in an ellipsis")
    func hugeBody() {
        var request = NotifyRequest(title: "t")
        request.body = String(repeating: "x", count: 9 << 20)
        #expect(NotificationLimits.bound(&request) == ["body of 9437184 bytes cut to 65536"])
        #expect(request.body.utf8.count == NotificationLimits.maximumBodyLength)
        #expect(request.body.hasSuffix("…"))
    }

    @Test("text is cut between characters, never inside one", arguments: ["é", "😀", "ab", "€"])
    func cutAtCharacter(_ unit: String) {
        var request = NotifyRequest(title: String(repeating: unit, count: 2000))
        _ = NotificationLimits.bound(&request)
        let bytes = Array(request.title.utf8)
        #expect(bytes.count <= NotificationLimits.maximumTitleLength)
        #expect(bytes.count > NotificationLimits.maximumTitleLength - 4 - unit.utf8.count)
        // Decoding would have replaced a broken scalar with U+FFFD.
        #expect(!request.title.contains("\u{FFFD}"))
        #expect(request.title.hasSuffix("…"))
        #expect(request.title.dropLast().allSatisfy { unit.contains($0) })
    }

    @Test("names too long to be right are left out, not cut")
    func namesLeftOut() {
        var request = NotifyRequest(title: "t")
        request.iconPath = "/" + String(repeating: "d", count: 5000)
        request.category = String(repeating: "c", count: 300)
        request.synchronousTag = String(repeating: "s", count: 300)
        let warnings = NotificationLimits.bound(&request)
        #expect(request.iconPath == nil && request.category == nil && request.synchronousTag == nil)
        #expect(warnings == ["icon path of 5001 bytes is longer than 4096; left out",
                             "category of 300 bytes is longer than 256; left out",
                             "synchronous tag of 300 bytes is longer than 256; left out"])
    }

    @Test("past 32 actions the rest go; an action with a huge id goes; a long label is cut")
    func actions() {
        var request = NotifyRequest(title: "t")
        request.actions = (0 ..< 40).map { NotificationAction(id: "a\($0)", label: "L\($0)") }
        request.actions[1].id = String(repeating: "i", count: 257)
        request.actions[2].label = String(repeating: "l", count: 1000)
        let warnings = NotificationLimits.bound(&request)
        #expect(request.actions.count == 31)
        #expect(request.actions.map(\.id).prefix(3) == ["a0", "a2", "a3"])
        #expect(request.actions[1].label.utf8.count == NotificationLimits.maximumActionLabelLength)
        #expect(warnings == ["40 actions; only the first 32 are kept",
                             "action id of 257 bytes is longer than 256; that action is left out",
                             "action label of 1000 bytes cut to 256"])
    }

    @Test("a timeout is 0 or more seconds and at most a day", arguments: [
        (1e300, 86_400.0), (86_401, 86_400), (-3, nil), (.nan, nil), (0, 0), (12.5, 12.5),
    ] as [(Double, Double?)])
    func timeout(_ given: Double, _ expected: Double?) {
        var request = NotifyRequest(title: "t")
        request.timeout = given
        let warnings = NotificationLimits.bound(&request)
        #expect(request.timeout == expected)
        #expect(warnings.count == (given == expected ? 0 : 1))
    }

    @Test("progress past 0 to 100 is clamped")
    func progress() {
        var request = NotifyRequest(title: "t")
        request.progress = 150
        #expect(NotificationLimits.bound(&request) == ["progress of 150 is outside 0 to 100; clamped"])
        #expect(request.progress == 100)
    }

    @Test("image data larger than 1024 a side is scaled down by a whole factor; transparent pixels do not bleed")
    func imageScaledDown() throws {
        // Each 2×2 block: three opaque red pixels and a transparent blue one.
        let source = image(width: 2050, height: 2) { x, y in
            x % 2 == 1 && y == 0 ? [0, 0, 255, 0] : [255, 0, 0, 255]
        }
        var request = NotifyRequest(title: "t")
        request.image = source
        #expect(NotificationLimits.bound(&request) == ["image of 2050×2 pixels scaled down to 684×1"])
        let scaled = try #require(request.image)
        #expect(scaled.width == 684 && scaled.height == 1)
        // 3×2 blocks: 5 opaque red of 6; alpha (5 × 255 + 3) / 6 = 213.
        #expect(Array(scaled.rgba[0 ..< 4]) == [255, 0, 0, 213])
        // 2050 = 3 × 683 + 1: the last block is one column, half of it opaque.
        #expect(Array(scaled.rgba[683 * 4 ..< 684 * 4]) == [255, 0, 0, 128])
    }

    @Test("an image within the limit is not touched")
    func imageWithinLimit() {
        var request = NotifyRequest(title: "t")
        request.image = image(width: 1024, height: 3) { _, _ in [1, 2, 3, 4] }
        let before = request.image
        #expect(NotificationLimits.bound(&request).isEmpty)
        #expect(request.image == before)
    }

    @Test("modes: sorted, no repeats, no empty or long names, at most 64")
    func modes() {
        var modes = ["b", "a", "b", "", String(repeating: "m", count: 65)] + (0 ..< 70).map { "x\($0)" }
        let warnings = NotificationLimits.bound(modes: &modes)
        #expect(modes.count == NotificationLimits.maximumModes)
        #expect(modes.prefix(2) == ["a", "b"])
        #expect(warnings == ["an empty mode name is left out", "mode name of 65 bytes is longer than 64; left out",
                             "72 modes; only the first 64 are kept"])
    }

    @Test("100 000 modes, long names among them, are cut to 64 with a warning per kind, not per name")
    func manyModes() {
        var modes = (0 ..< 100_000).map { "m\($0)" } + (0 ..< 50_000).map { "\($0)" + String(repeating: "x", count: 70) }
        let warnings = NotificationLimits.bound(modes: &modes)
        #expect(modes.count == NotificationLimits.maximumModes)
        #expect(warnings == ["50000 mode names longer than 64 bytes are left out",
                             "100000 modes; only the first 64 are kept"])
    }

    @Test("a notification gets the same limits as a request")
    func notification() {
        var notification = Notification(id: 3, title: String(repeating: "t", count: 2000), timeout: 1e300)
        let warnings = NotificationLimits.bound(&notification)
        #expect(notification.title.utf8.count == NotificationLimits.maximumTitleLength)
        #expect(notification.timeout == NotificationLimits.longestDisplayTime)
        #expect(warnings.count == 2)
    }

    @Test("the longest display time can be added to a year of uptime without overflowing an Instant")
    func noOverflow() {
        let uptime = Instant(seconds: 365 * 86_400)
        #expect((uptime + NotificationLimits.longestDisplayTime) - uptime == NotificationLimits.longestDisplayTime)
    }
}
