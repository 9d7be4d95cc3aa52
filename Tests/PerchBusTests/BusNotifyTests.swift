import PerchCore
import Testing
@testable import PerchBus

/// A Notify call's arguments with everything optional left out.
private func decode(actions: [String] = [], hints: [(key: String, value: BusHintValue)] = [],
                    expireTimeout: Int32 = -1, appIcon: String = "") throws(BusError) -> BusNotify {
    BusNotify(appName: "app", replacesID: 0, appIcon: appIcon, summary: "Summary", body: "Body",
                  actions: actions, hints: hints, expireTimeout: expireTimeout)
}

/// A 2×2 RGBA image, rows padded to `rowstride`.
private func image(width: Int = 2, height: Int = 2, rowstride: Int = 8, hasAlpha: Bool = true,
                   channels: Int = 4, bytes: Int? = nil) -> RawImage {
    RawImage(width: width, height: height, rowstride: rowstride, hasAlpha: hasAlpha, bitsPerSample: 8,
             channels: channels, data: [UInt8](repeating: 0x7f, count: bytes ?? rowstride * height))
}

@Suite struct BusNotifyTests {
    @Test func theFlatActionListBecomesPairs() throws {
        let notify = try decode(actions: ["default", "Open", "reply", "Reply"])
        #expect(notify.actions == [NotificationAction(id: "default", label: "Open"),
                                   NotificationAction(id: "reply", label: "Reply")])
    }

    @Test func anOddActionListKeepsItsCompletePairsAndSaysWhatWasLeftOut() throws {
        let notify = try decode(actions: ["default", "Open", "orphan"])
        #expect(notify.actions == [NotificationAction(id: "default", label: "Open")])
        #expect(notify.diagnostics == ["actions must come in pairs of identifier and label; 3 strings sent, "
                                       + "the last (\"orphan\") has no pair and is left out"])
        let alone = try decode(actions: ["orphan"])
        #expect(alone.actions.isEmpty && alone.diagnostics.count == 1)
    }

    @Test func xDunstStackTagIsTheSynchronousTagAndTheCanonicalHintWins() throws {
        #expect(try decode(hints: [("x-dunst-stack-tag", .string("volume"))]).synchronousTag == "volume")
        let both = try decode(hints: [("x-canonical-private-synchronous", .string("a")),
                                      ("x-dunst-stack-tag", .string("b"))])
        #expect(both.synchronousTag == "a")
        let reversed = try decode(hints: [("x-dunst-stack-tag", .string("b")),
                                          ("x-canonical-private-synchronous", .string("a"))])
        #expect(reversed.synchronousTag == "a")
    }

    @Test func transientReachesTheRequest() throws {
        #expect(try decode(hints: [("transient", .boolean(true))]).notifyRequest.transient)
        #expect(try !decode().notifyRequest.transient)
    }

    @Test func urgencyIsAByteFromZeroToTwo() throws {
        #expect(try decode(hints: [("urgency", .byte(0))]).urgency == .low)
        #expect(try decode(hints: [("urgency", .byte(2))]).urgency == .critical)
        #expect(try decode().urgency == .normal)
        // Other integer widths are the same number.
        #expect(try decode(hints: [("urgency", .int32(2))]).urgency == .critical)
        let outOfRange = try decode(hints: [("urgency", .byte(7))])
        #expect(outOfRange.urgency == .normal)
        #expect(outOfRange.diagnostics == ["hint urgency 7 is not 0, 1 or 2; ignored"])
    }

    @Test func aHintOfTheWrongTypeIsIgnoredWithADiagnostic() throws {
        let notify = try decode(hints: [("urgency", .string("critical")), ("resident", .int32(1)),
                                        ("category", .uint32(3)), ("value", .string("50"))])
        #expect(notify.urgency == .normal)
        #expect(!notify.resident)
        #expect(notify.category == nil)
        #expect(notify.value == nil)
        #expect(notify.diagnostics == [
            "hint urgency has type s, expected a byte; ignored",
            "hint resident has type i, expected a boolean; ignored",
            "hint category has type u, expected a string; ignored",
            "hint value has type s, expected an int32; ignored",
        ])
    }

    @Test func knownHintsAreDecoded() throws {
        let notify = try decode(hints: [
            ("category", .string("email.arrived")), ("desktop-entry", .string("org.example.Mail")),
            ("image-path", .string("/tmp/a.png")), ("transient", .boolean(true)), ("resident", .boolean(true)),
            ("value", .int32(42)), ("x-canonical-private-synchronous", .string("volume")),
        ])
        #expect(notify.category == "email.arrived")
        #expect(notify.desktopEntry == "org.example.Mail")
        #expect(notify.imagePath == "/tmp/a.png")
        #expect(notify.transient && notify.resident)
        #expect(notify.value == 42)
        #expect(notify.synchronousTag == "volume")
        #expect(notify.diagnostics.isEmpty)
    }

    @Test func theReplyPlaceholderHintReachesTheRequest() throws {
        let notify = try decode(actions: ["inline-reply", "Reply"],
                                hints: [("x-kde-reply-placeholder-text", .string("Answer Ann"))])
        #expect(notify.replyPlaceholder == "Answer Ann")
        #expect(notify.notifyRequest.replyPlaceholder == "Answer Ann")
        let wrong = try decode(hints: [("x-kde-reply-placeholder-text", .int32(1))])
        #expect(wrong.replyPlaceholder == nil)
        #expect(wrong.diagnostics == ["hint x-kde-reply-placeholder-text has type i, expected a string; ignored"])
    }

    @Test func progressIsClampedToAPercentage() throws {
        #expect(try decode(hints: [("value", .int32(250))]).value == 100)
        #expect(try decode(hints: [("value", .int32(-3))]).value == 0)
    }

    @Test func soundAndUnknownHintsAreIgnoredSilently() throws {
        let notify = try decode(hints: [("sound-name", .string("bell")), ("suppress-sound", .boolean(true)),
                                        ("sound-file", .string("/x.oga")), ("x-vendor", .other(signature: "(is)"))])
        #expect(notify.diagnostics.isEmpty)
    }

    @Test func theSpec12ImagePathNameWinsOverThe11One() throws {
        let notify = try decode(hints: [("image-path", .string("/new.png")), ("image_path", .string("/old.png"))])
        #expect(notify.imagePath == "/new.png")
        #expect(try decode(hints: [("image_path", .string("/old.png"))]).imagePath == "/old.png")
    }

    @Test func aValidImageIsKept() throws {
        #expect(try decode(hints: [("image-data", .image(image()))]).image == image())
        // RGB with rows padded to 4 bytes, the last row unpadded.
        let rgb = image(width: 3, height: 2, rowstride: 12, hasAlpha: false, channels: 3, bytes: 12 + 9)
        #expect(try decode(hints: [("image-data", .image(rgb))]).image == rgb)
        // Older names.
        #expect(try decode(hints: [("icon_data", .image(image()))]).image == image())
    }

    @Test func anImageThatDoesNotAddUpIsDroppedWithADiagnostic() throws {
        let cases: [(RawImage, String)] = [
            (image(rowstride: 3), "rowstride 3 is shorter than 2 pixels of 4 bytes"),
            (image(width: 100_000, height: 100_000, rowstride: 400_000, bytes: 16),
             "size 100000×100000 is larger than 4096×4096"),
            (image(bytes: 15), "15 bytes of pixels, 16 needed"),
            (image(hasAlpha: false), "4 channels with has_alpha false (expected 3)"),
            (image(width: 0), "size 0×2 is empty"),
            (RawImage(width: 1, height: 1, rowstride: 8, hasAlpha: true, bitsPerSample: 16, channels: 4,
                      data: [UInt8](repeating: 0, count: 8)), "16 bits per sample (only 8 is supported)"),
        ]
        for (raw, problem) in cases {
            let notify = try decode(hints: [("image-data", .image(raw))])
            #expect(notify.image == nil)
            #expect(notify.diagnostics == ["hint image-data ignored: \(problem)"])
        }
        let notAnImage = try decode(hints: [("image-data", .string("/tmp/a.png"))])
        #expect(notAnImage.diagnostics == ["hint image-data has type s, expected (iiibiiay); ignored"])
    }

    @Test func aHugeRowstrideCannotOverflowTheSizeCheck() {
        let raw = RawImage(width: 4096, height: 4096, rowstride: Int(Int32.max), hasAlpha: true, bitsPerSample: 8,
                           channels: 4, data: [1, 2, 3])
        #expect(raw.problem != nil)
    }

    @Test func expireTimeoutKeepsMinusOneAndZero() throws {
        #expect(try decode(expireTimeout: -1).notifyRequest.timeout == nil)
        #expect(try decode(expireTimeout: 0).notifyRequest.timeout == 0)
        #expect(try decode(expireTimeout: 2500).notifyRequest.timeout == 2.5)
        let odd = try decode(expireTimeout: -20)
        #expect(odd.expireTimeout == -1)
        #expect(odd.diagnostics == ["expire_timeout -20 is negative; using the default"])
    }

    @Test func theNotifyRequestCarriesWhatTheControlSocketWould() throws {
        var notify = try decode(actions: ["default", "Open"],
                                hints: [("urgency", .byte(2)), ("category", .string("im")),
                                        ("resident", .boolean(true))],
                                expireTimeout: 4000, appIcon: "file:///usr/share/icons/a%20b.png")
        notify.replacesID = 9
        var expected = NotifyRequest(title: "Summary")
        expected.body = "Body"
        expected.app = "app"
        // As sent: the icon lookup tells paths, URIs and names apart.
        expected.iconPath = "file:///usr/share/icons/a%20b.png"
        expected.urgency = .critical
        expected.timeout = 4
        expected.replaces = 9
        expected.actions = [NotificationAction(id: "default", label: "Open")]
        expected.resident = true
        expected.category = "im"
        #expect(notify.notifyRequest == expected)
    }

    @Test func imagePathWinsOverAppIcon() throws {
        let notify = try decode(hints: [("image-path", .string("/img.png"))], appIcon: "/icon.png")
        #expect(notify.notifyRequest.iconPath == "/img.png")
        let named = try decode(hints: [("image-path", .string("mail-unread"))], appIcon: "/icon.png")
        #expect(named.notifyRequest.iconPath == "mail-unread")
        let empty = try decode(hints: [("image-path", .string(""))], appIcon: "dialog-information")
        #expect(empty.notifyRequest.iconPath == "dialog-information")
    }

    @Test func closeReasonsHaveTheirSpecCodes() {
        #expect(DismissReason.expired.freedesktopCode == 1)
        #expect(DismissReason.dismissedByUser.freedesktopCode == 2)
        #expect(DismissReason.closedByCall.freedesktopCode == 3)
        #expect(DismissReason.replaced.freedesktopCode == 4)
        #expect(DismissReason.suppressed.freedesktopCode == 4)
    }
}
