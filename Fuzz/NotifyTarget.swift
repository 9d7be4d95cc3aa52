// Fuzz target: a D-Bus Notify call after sd-bus has read its arguments:
// `BusNotify(...)` (PerchCore/Notification/BusNotify.swift) with hints and `image-data`
// built from the input, `RawImage.problem` and `toastImage`
// (RawImage.swift), the `NotifyRequest` it becomes, and the limits every
// post goes through (`NotificationLimits.bound`).
//
// The input: the expire timeout, the number of strings in the actions,
// then hints, each a key (one of the known names, or text) and a value of
// a type chosen by a byte; an image's header fields are read as the
// Int32s the wire carries, its pixels are the bytes that follow. Strings
// are cut at 0 bytes. Properties:
// - decoding returns; every problem becomes a diagnostic line, at most a
//   few per hint;
// - actions are the complete pairs, in order; `value` is within 0...100;
//   the expire timeout is -1 or more;
// - an image is kept only when `problem` is nil, and then converting it
//   reads inside its bytes (ASan) and gives width × height RGBA pixels;
// - the request, bounded, is within every limit, and bounding it again
//   changes nothing.
import PerchCore

private let knownKeys = ["urgency", "category", "desktop-entry", "image-path", "image_path", "transient",
                         "resident", "value", "x-canonical-private-synchronous", "x-dunst-stack-tag",
                         "x-kde-reply-placeholder-text", "image-data", "image_data", "icon_data",
                         "sound-name", "suppress-sound"]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzNotify(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let expireTimeout = input.integer(Int32.self)
    let actionCount = Int(input.byte() % 8)
    let appName = input.text(), summary = input.text(), body = input.text(), appIcon = input.text()
    let flatActions = (0..<actionCount).map { _ in input.text() }

    var hints: [(key: String, value: BusHintValue)] = []
    var images = 0
    while !input.isAtEnd && hints.count < 16 {
        let choice = Int(input.byte())
        let key = choice < 128 ? knownKeys[choice % knownKeys.count] : input.text()
        let value = hintValue(&input)
        if case .image = value { images += 1 }
        hints.append((key, value))
    }

    let notify = BusNotify(appName: appName, replacesID: input.integer(UInt32.self), appIcon: appIcon,
                           summary: summary, body: body, actions: flatActions, hints: hints,
                           expireTimeout: expireTimeout)
    require(notify.diagnostics.count <= hints.count + 2,
            "\(notify.diagnostics.count) diagnostics for \(hints.count) hints")
    require(notify.actions.count == flatActions.count / 2, "actions are not the complete pairs")
    for (index, action) in notify.actions.enumerated() {
        require(action.id == flatActions[2 * index] && action.label == flatActions[2 * index + 1],
                "action \(index) is not its pair")
    }
    if let value = notify.value { require((0...100).contains(value), "value \(value) outside 0...100") }
    require(notify.expireTimeout >= -1, "expire timeout \(notify.expireTimeout)")
    if let image = notify.image {
        require(image.problem == nil, "an image with a problem was kept")
        require(images > 0, "an image from nowhere")
    }

    var request = notify.notifyRequest
    require(request.title == summary && request.body == body && request.app == appName,
            "the request's text is not the call's")
    if let image = notify.image {
        guard let pixels = request.image else {
            require(false, "a valid image gave no pixels")
            return 0
        }
        require(pixels.width == image.width && pixels.height == image.height
                && pixels.rgba.count == image.width * image.height * 4, "the pixels are not width × height RGBA")
    }
    _ = NotificationLimits.bound(&request)
    checkBounded(request)
    require(NotificationLimits.bound(&request).isEmpty, "bounding twice changed the request again")
    return 0
}

private func hintValue(_ input: inout FuzzInput) -> BusHintValue {
    switch input.byte() % 12 {
    case 0: .byte(input.byte())
    case 1: .boolean(input.bool())
    case 2: .int16(input.integer())
    case 3: .uint16(input.integer())
    case 4: .int32(input.integer())
    case 5: .uint32(input.integer())
    case 6: .int64(input.integer())
    case 7: .uint64(input.integer())
    case 8: .double(Double(bitPattern: input.integer()))
    case 9: .string(input.text())
    case 10: .other(signature: input.text())
    default: .image(rawImage(&input))
    }
}

/// `(iiibiiay)`: the wire's Int32s, as sd-bus hands them over.
private func rawImage(_ input: inout FuzzInput) -> RawImage {
    // Small sizes are the interesting ones; make them easy to reach.
    let mask: Int32 = input.bool() ? -1 : Int32(bitPattern: 0x8000_0FFF)
    let width = Int(input.integer(Int32.self) & mask), height = Int(input.integer(Int32.self) & mask)
    let rowstride = Int(input.integer(Int32.self))
    let hasAlpha = input.bool()
    let bitsPerSample = Int(input.integer(Int32.self)), channels = Int(input.integer(Int32.self))
    let count = Int(input.integer(UInt16.self))
    var pixels: [UInt8] = []
    for _ in 0..<count where !input.isAtEnd { pixels.append(input.byte()) }
    return RawImage(width: width, height: height, rowstride: rowstride,
                    hasAlpha: hasAlpha, bitsPerSample: bitsPerSample, channels: channels, data: pixels)
}

private func checkBounded(_ request: NotifyRequest) {
    require(request.title.utf8.count <= NotificationLimits.maximumTitleLength, "title too long")
    require(request.body.utf8.count <= NotificationLimits.maximumBodyLength, "body too long")
    require(request.app.utf8.count <= NotificationLimits.maximumAppNameLength, "app name too long")
    require((request.iconPath?.utf8.count ?? 0) <= NotificationLimits.maximumIconPathLength, "icon path too long")
    require((request.category?.utf8.count ?? 0) <= NotificationLimits.maximumCategoryLength, "category too long")
    require((request.synchronousTag?.utf8.count ?? 0) <= NotificationLimits.maximumSynchronousTagLength,
            "synchronous tag too long")
    require((request.replyPlaceholder?.utf8.count ?? 0) <= NotificationLimits.maximumReplyPlaceholderLength,
            "reply placeholder too long")
    require(request.actions.count <= NotificationLimits.maximumActions, "too many actions")
    for action in request.actions {
        require(action.id.utf8.count <= NotificationLimits.maximumActionIDLength, "action id too long")
        require(action.label.utf8.count <= NotificationLimits.maximumActionLabelLength, "action label too long")
    }
    if let timeout = request.timeout {
        require(timeout >= 0 && timeout <= NotificationLimits.longestDisplayTime, "timeout \(timeout)")
    }
    if let progress = request.progress { require((0...100).contains(progress), "progress \(progress)") }
    if let image = request.image {
        require(max(image.width, image.height) <= NotificationLimits.maximumImageDimension,
                "image of \(image.width)×\(image.height)")
        require(image.rgba.count == image.width * image.height * 4, "image pixels not width × height RGBA")
    }
}
