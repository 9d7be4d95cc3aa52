/// The inhibitions apps hold through KDE's `Inhibit` on
/// org.freedesktop.Notifications (xdg-desktop-portal-kde calls it while
/// the screen is shared; Telegram to silence itself). While any is held,
/// notifications are kept back as under do-not-disturb. Each is known by
/// the cookie Perch gave it, and ends by `UnInhibit` or when its caller
/// leaves the bus (`dropAll(ownedBy:)`).
public struct Inhibitions: Equatable, Sendable {
    public struct Inhibition: Equatable, Sendable {
        /// The desktop entry the caller named (may be empty).
        public var app: String
        /// Why, in the caller's words (may be empty).
        public var reason: String
        /// The caller: its unique bus name, so that it ends when the
        /// caller goes.
        public var owner: String
    }

    /// At most this many at once: a caller that loops on Inhibit cannot
    /// grow the daemon without bound (the oldest goes first).
    public static let limit = 64
    /// An app's name or reason is cut to this many bytes.
    public static let textLimit = 256

    private(set) var held: [UInt32: Inhibition] = [:]
    private var nextCookie: UInt32 = 1

    public init() {}

    public var isEmpty: Bool { held.isEmpty }
    public var count: Int { held.count }

    /// The inhibitions in the order they were taken (by cookie).
    public var all: [(cookie: UInt32, inhibition: Inhibition)] {
        held.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// Takes a new inhibition; its cookie (never 0).
    public mutating func add(app: String, reason: String, owner: String) -> UInt32 {
        if held.count >= Self.limit, let oldest = held.keys.min() { held.removeValue(forKey: oldest) }
        let cookie = nextCookie
        nextCookie = nextCookie == .max ? 1 : nextCookie + 1
        held[cookie] = Inhibition(app: NotificationLimits.truncated(app, toBytes: Self.textLimit),
                                  reason: NotificationLimits.truncated(reason, toBytes: Self.textLimit),
                                  owner: owner)
        return cookie
    }

    /// Ends the inhibition `cookie`; false when there was none.
    @discardableResult
    public mutating func remove(_ cookie: UInt32) -> Bool {
        held.removeValue(forKey: cookie) != nil
    }

    /// Ends every inhibition `owner` took; how many.
    @discardableResult
    public mutating func dropAll(ownedBy owner: String) -> Int {
        let before = held.count
        held = held.filter { $0.value.owner != owner }
        return before - held.count
    }
}
