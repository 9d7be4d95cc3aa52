
extension BusNotify {
    /// The same request as the control socket's `notify`, so both front
    /// doors post through one core operation. The desktop entry's icon,
    /// which needs the .desktop file read, is the daemon's to look up
    /// (`notifyRequest(iconSize:icons:)`).
    public var notifyRequest: NotifyRequest {
        var request = NotifyRequest(title: summary)
        request.body = body
        request.app = Attachment.shownApp(appName, display: displayAppName, origin: originName)
        if request.app != appName { request.sentApp = appName }
        // Spec order: image-data, then image-path, then app_icon. Each of the
        // last two is a path, a file:// URI or a theme icon name, told apart
        // where the icon is looked up; the desktop-entry hint's icon is the
        // daemon's to find (it reads the .desktop file).
        // An attached image (x-kde-urls) stands in for an image hint.
        request.iconPath = [imagePath, Attachment.thumbnail(among: attachments), appIcon].lazy.compactMap { $0 }
            .first { !$0.isEmpty }
        request.attachment = attachments.first
        request.urgency = urgency
        switch expireTimeout {
        case -1: request.timeout = nil
        default: request.timeout = Double(expireTimeout) / 1000
        }
        request.replaces = replacesID == 0 ? nil : replacesID
        request.actions = actions
        request.resident = resident
        request.transient = transient
        request.category = category
        request.progress = value
        request.synchronousTag = synchronousTag
        request.replyPlaceholder = replyPlaceholder
        request.image = image.flatMap(\.toastImage)
        request.sound = sound
        request.suppressSound = suppressSound
        request.sandbox = sandbox
        request.desktopEntry = desktopEntry
        return request
    }
}

extension DismissReason {
    /// The NotificationClosed signal's reason code: 1 expired, 2 dismissed
    /// by the user, 3 closed by a call to CloseNotification, 4 undefined.
    /// Replaced and suppressed have no code of their own and are 4.
    public var freedesktopCode: UInt32 {
        switch self {
        case .expired: 1
        case .dismissedByUser: 2
        case .closedByCall: 3
        case .replaced, .suppressed: 4
        }
    }
}
