extension BusNotify {
    /// The request with the one icon string the notification keeps, in the
    /// spec's order as desktops really send it: image-data; then the
    /// `image-path` hint, unless it is a theme name that no theme has and
    /// `app_icon` gives another (the spec's next choice); then `app_icon`;
    /// failing all of them, the icon of the `desktop-entry` hint's
    /// `.desktop` file, the last resort. The themes and the file are read
    /// here, once, through `icons`; the notification then keeps the result.
    /// `icons` is asked for only when one of those two is needed: making
    /// the daemon's locator reads the theme settings, which a notification
    /// that names its icon (or none) must not pay for.
    /// `iconSize` (surface pixels) is the size a theme name is checked at.
    public func notifyRequest(iconSize: Int, icons: () -> IconLocator)
        -> (request: NotifyRequest, problems: [IconDiagnostic])
    {
        var request = notifyRequest
        if request.image == nil, let imagePath, request.iconPath == imagePath,
           !appIcon.isEmpty, appIcon != imagePath,
           case .success(.themed(let name))? = IconSource.parse(imagePath),
           icons().locate(name, size: max(iconSize, 1), scale: 1).file == nil {
            request.iconPath = appIcon
        }
        guard request.iconPath == nil, request.image == nil, let desktopEntry, !desktopEntry.isEmpty else {
            return (request, [])
        }
        let (source, problems) = icons().desktopEntryIcon(desktopEntry)
        switch source {
        case .file(let path)?: request.iconPath = path
        case .themed(let name)?: request.iconPath = name
        case nil: break
        }
        return (request, problems)
    }
}
