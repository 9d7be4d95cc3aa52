/// A notification inside a reply or an event, read back from the form
/// `ControlProtocol.encode(_:)` writes.
///
/// `Notification(json:)` (NotificationCoding.swift) reads the same form for
/// the state file, where an unknown member means a damaged or foreign file
/// and is refused. Here an unknown member means a newer daemon and is
/// ignored, so replies need their own reader; the checks on the known
/// members are the same, and a test round-trips both through the encoder.
extension ControlReplyObject {
    func notification(_ key: String) throws(ControlReplyError) -> Notification {
        try ControlReplyObject(try required(key), at: path(of: key)).notification()
    }

    /// This object, read as a notification.
    func notification() throws(ControlReplyError) -> Notification {
        var notification = Notification(id: try notificationID("id"), title: try string("title"))
        notification.app = try string("app")
        notification.body = try string("body")
        notification.urgency = try choice("urgency", of: Urgency.self)
        notification.iconPath = try optionalString("icon")
        if let timeout = try optionalNumber("timeout") {
            guard timeout >= 0 else {
                throw ControlReplyError("\"\(path(of: "timeout"))\" must be 0 or more seconds, not \(JSONValue.number(timeout))")
            }
            notification.timeout = timeout
        }
        notification.actions = try actions()
        notification.resident = try optionalBool("resident") ?? false
        notification.category = try optionalString("category")
        if let progress = try optionalNumber("progress") {
            guard progress >= 0, progress <= 100, progress == progress.rounded() else {
                throw ControlReplyError("\"\(path(of: "progress"))\" must be a whole number from 0 to 100, not \(JSONValue.number(progress))")
            }
            notification.progress = Int(progress)
        }
        notification.replyPlaceholder = try optionalString("reply_placeholder")
        notification.sandbox = try optionalString("sandbox")
        notification.desktopEntry = try optionalString("desktop_entry")
        notification.stackTag = try optionalString("stack_tag")
        notification.attachment = try optionalString("attachment")
        notification.sentApp = try optionalString("sent_app")
        return notification
    }

    private func actions() throws(ControlReplyError) -> [NotificationAction] {
        guard let items = try optionalArray("actions") else { return [] }
        var actions: [NotificationAction] = []
        for (index, item) in items.enumerated() {
            let action = try ControlReplyObject(item, at: "\(path(of: "actions"))[\(index)]")
            let id = try action.string("id")
            guard !id.isEmpty else { throw ControlReplyError("\"\(action.path(of: "id"))\" must not be empty") }
            actions.append(NotificationAction(id: id, label: try action.string("label")))
        }
        return actions
    }
}
