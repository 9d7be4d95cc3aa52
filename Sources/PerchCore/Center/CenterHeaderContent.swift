/// What a group header of the notification center shows.
public struct CenterHeaderContent: Equatable, Sendable {
    public var appName: String
    /// An icon name or path, as a toast's `iconPath`; nil = none.
    public var iconPath: String?
    /// The notification whose kept icon stands in for `iconPath`'s file
    /// (`ToastContent.iconOwner`).
    public var iconOwner: UInt32?
    /// How many entries the group has.
    public var count: Int
    /// Folded groups show only their header (▸); open ones their entries (▾).
    public var isFolded: Bool

    public init(appName: String, iconPath: String? = nil, count: Int, isFolded: Bool = false) {
        self.appName = appName
        self.iconPath = iconPath
        self.count = count
        self.isFolded = isFolded
    }

    /// The badge's text: the count, "999+" past that (a badge stays small).
    public var countText: String { count > 999 ? "999+" : String(max(0, count)) }
}

extension CenterGroup {
    /// What its header shows; an app that sent no name is listed as "Other".
    public var header: CenterHeaderContent {
        var header = CenterHeaderContent(appName: app.isEmpty ? "Other" : app, iconPath: iconPath, count: count,
                                         isFolded: isFolded)
        header.iconOwner = entries[0].notification.id
        return header
    }
}
