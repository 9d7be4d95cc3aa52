/// What a copy takes from a notification.
public enum CopyWhat: String, CaseIterable, Equatable, Sendable {
    /// The body as plain text.
    case text
    /// The one-time code in it (`OneTimeCode`).
    case code
}

/// Copying a notification's text or its one-time code to the clipboard
/// (`perchctl copy`, the toasts' `c` and `o` keys, the center's "Copy
/// text" and "Copy code"). The rule of what is copied is here, once: the
/// body as it reads on the card, its markup out and its entities read
/// (when the config reads markup in it), without control characters;
/// the code is looked for in that text, then in the title. A live
/// notification or one in history may be copied; nothing about it
/// changes, so nothing is recorded or told.
extension NotificationService {
    /// The compositor offers a clipboard, or stopped offering one.
    public func setClipboard(offered: Bool) {
        isClipboardOffered = offered
    }

    /// What copying `what` of `notification` would put on the clipboard;
    /// nil when there is nothing (no code, an empty body).
    public func copyText(of notification: Notification, _ what: CopyWhat) -> String? {
        let resolved = plan.resolve(for: notification)
        let readsMarkup = resolved.markup && resolved.bodyMarkup != .escape
        let body = CopyText.plain(notification.body, markup: readsMarkup)
        switch what {
        case .text:
            return body.isEmpty ? nil : body
        case .code:
            return OneTimeCode.find(in: body) ?? OneTimeCode.find(in: CopyText.plain(notification.title, markup: false))
        }
    }

    /// What an entry's menu offers to copy of `notification`: nothing
    /// without a clipboard, the code only when there is one.
    func copies(of notification: Notification) -> [CopyWhat] {
        guard isClipboardOffered else { return [] }
        return [CopyWhat.text, .code].filter { copyText(of: notification, $0) != nil }
    }

    /// The notification `id`, live or in history.
    func copyable(_ id: UInt32) -> Notification? {
        liveToast(id: id)?.notification ?? history.entries.last { $0.notification.id == id }?.notification
    }

    /// Puts `what` of notification `id` on the clipboard: the text copied,
    /// and the `.clipboard` effect; a clear error when there is no such
    /// notification, nothing to copy, or no clipboard.
    public func copy(_ id: UInt32, _ what: CopyWhat) -> (result: Result<String, ControlError>, effects: [ServiceEffect]) {
        guard let notification = copyable(id) else {
            return (.failure(ControlError(.notFound, "no notification \(id)")), [])
        }
        guard let text = copyText(of: notification, what) else {
            let message = what == .code ? "notification \(id) has no one-time code" : "notification \(id) has no text"
            return (.failure(ControlError(.unavailable, message)), [])
        }
        guard isClipboardOffered else {
            return (.failure(ControlError(.unavailable, Self.noClipboard)), [])
        }
        return (.success(text), [.clipboard(text)])
    }

    static let noClipboard = "the compositor offers no clipboard to set "
        + "(neither ext_data_control_manager_v1 nor zwlr_data_control_manager_v1)"

    /// The same from a key or the center: the failure is a line in the log.
    func copy(_ id: UInt32, _ what: CopyWhat, into effects: inout [ServiceEffect]) {
        let (result, copied) = copy(id, what)
        effects += copied
        if case .failure(let error) = result { effects.append(.warning("copy: \(error.message)")) }
    }
}

/// A body as plain text for the clipboard: markup out with its entities
/// read (`MarkupStripping`, as `markup=strip` draws it), control
/// characters out but line breaks and tabs, bidi overrides and isolates
/// out (pasted into a terminal they would reorder what is seen), and the
/// spaces around it trimmed. One pass; the body is bounded already
/// (`NotificationLimits.maximumBodyLength`).
public enum CopyText {
    public static func plain(_ text: String, markup: Bool) -> String {
        let source = markup ? MarkupStripping.strip(text) : text
        var result = ""
        result.unicodeScalars.reserveCapacity(source.unicodeScalars.count)
        for scalar in source.unicodeScalars where scalar == "\n" || scalar == "\t" || !isControl(scalar) {
            result.unicodeScalars.append(scalar)
        }
        return result.trimmingSpaces()
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return value < 0x20 || (0x7F...0x9F).contains(value) || (0x202A...0x202E).contains(value)
            || (0x2066...0x2069).contains(value) || value == 0xFEFF
    }
}

extension String {
    /// Without the spaces, tabs and line breaks at either end.
    fileprivate func trimmingSpaces() -> String {
        let scalars = unicodeScalars
        let isSpace = { (scalar: Unicode.Scalar) in scalar == " " || scalar == "\n" || scalar == "\t" }
        guard let first = scalars.firstIndex(where: { !isSpace($0) }),
              let last = scalars.lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(scalars[first...last])
    }
}
