/// Icons that outlive their files: the rules of what is kept, and how a
/// kept copy is named on disk.
///
/// Chromium, Electron apps and others hand a notification's picture over
/// as a temporary file (`app_icon` or the `image-path` hint) and delete
/// it moments after Notify returns. Perch reads such a file as the
/// notification arrives and keeps its pixels, at the size they are drawn,
/// under the notification's id (`KeptIcons` in memory, the daemon's
/// `KeptIconDirectory` on disk), for as long as the notification is live
/// or in history. Theme names are not kept (themes do not vanish), nor are
/// image-data pixels (the notification holds them already), nor symbolic
/// icons (drawn in the text's colour, which a kept copy would freeze).
public enum KeptIcon {
    /// The file whose picture is kept for `notification`: its icon string
    /// when that is an absolute path or a `file://` URI (decoded), it has
    /// no image-data (which would be drawn instead) and the file is not a
    /// symbolic icon; nil otherwise.
    public static func file(of notification: Notification) -> String? {
        guard notification.image == nil, let text = notification.iconPath else { return nil }
        return file(named: text)
    }

    /// The file whose picture is kept for the notification `content`
    /// shows (`content.iconOwner`), as `file(of:)` says; nil without an
    /// owner.
    public static func file(of content: ToastContent) -> String? {
        guard content.iconOwner != nil, content.image == nil, let text = content.iconPath else { return nil }
        return file(named: text)
    }

    /// The path an icon string names when it names a file that may be kept
    /// (see `file(of:)`); nil for a theme name, an empty or bad string, or
    /// a symbolic icon.
    public static func file(named text: String) -> String? {
        guard case .success(.file(let path))? = IconSource.parse(text) else { return nil }
        let name = path.split(separator: "/").last ?? ""
        return IconName.occurs("-symbolic.", in: name) ? nil : path
    }

    /// Largest width or height of a kept copy read back from disk, in
    /// buffer pixels: a copy is written at the icon's box (`icon-size`
    /// times the output's scale, 64 px by default on a scale-2 output);
    /// anything larger was not written by Perch.
    public static let maximumDimension = 1_024

    /// Largest kept copy read back from disk, in bytes (a 1024² PNG of
    /// noise is about 4 MiB; an icon's box compresses to a few KiB).
    public static let maximumFileBytes = 4 << 20

    /// The name of notification `id`'s kept copy of the picture at
    /// `iconPath`: `<id>-<CRC-32 of the path, 8 hex digits>.png`. The path
    /// is in the name so that a copy is never taken for another file's
    /// picture: a notification replaced with another icon, or an id given
    /// again, finds no copy under its new path.
    public static func fileName(id: UInt32, iconPath: String) -> String {
        let hex = String(CRC32.checksum(iconPath.utf8), radix: 16)
        return "\(id)-\(String(repeating: "0", count: 8 - hex.count))\(hex).png"
    }

    /// The id a kept copy's file name is for; nil for any other name
    /// (a temporary file, something a user put there).
    public static func id(ofFileName name: String) -> UInt32? {
        guard name.hasSuffix(".png") else { return nil }
        let stem = name.dropLast(4)
        guard let dash = stem.firstIndex(of: "-") else { return nil }
        let digits = stem[..<dash], hex = stem[stem.index(after: dash)...]
        guard hex.count == 8, hex.allSatisfy({ $0.isHexDigit && !$0.isUppercase }),
              !digits.isEmpty, digits.count <= 10, digits.allSatisfy({ ("0"..."9").contains($0) }),
              digits.first != "0" || digits.count == 1,
              let id = UInt32(digits), id != 0 else { return nil }
        return id
    }
}

/// Kept icons within a total of bytes: the oldest kept (by the moment it
/// was admitted) goes first when a new one does not fit. Pure
/// bookkeeping; the memory store (`KeptIcons`) and the directory on disk
/// (`KeptIconDirectory`) each hold one and delete what it evicts.
///
/// Why the oldest first: notifications are kept in the order they arrive,
/// and the history drops its oldest first too, so what is evicted is what
/// the center shows last (and what history will drop next anyway).
public struct KeptIconBudget<Key: Hashable>: Sendable where Key: Sendable {
    private struct Held: Sendable {
        var bytes: Int
        var order: UInt64
    }

    /// The most bytes held at once.
    public let byteLimit: Int
    private var held: [Key: Held] = [:]
    private var admitted: UInt64 = 0
    /// The bytes held now.
    public private(set) var bytes = 0

    public init(byteLimit: Int) {
        self.byteLimit = max(0, byteLimit)
    }

    public var count: Int { held.count }
    public func contains(_ key: Key) -> Bool { held[key] != nil }
    /// Every key held, in no order.
    public var all: [Key] { Array(held.keys) }

    /// Holds `key` (anew, if it was held) at `bytes`, and returns what must
    /// go to make room, oldest first. A key larger than the whole limit is
    /// not held: it is returned among the evicted itself, last.
    public mutating func admit(_ key: Key, bytes size: Int) -> [Key] {
        remove(key)
        let size = max(0, size)
        guard size <= byteLimit else { return [key] }
        var evicted: [Key] = []
        if bytes + size > byteLimit {
            let oldestFirst = held.sorted { $0.value.order < $1.value.order }
            for (old, entry) in oldestFirst where bytes + size > byteLimit {
                held[old] = nil
                bytes -= entry.bytes
                evicted.append(old)
            }
        }
        admitted &+= 1
        held[key] = Held(bytes: size, order: admitted)
        bytes += size
        return evicted
    }

    /// Stops holding `key`; nothing when it was not held.
    public mutating func remove(_ key: Key) {
        guard let entry = held.removeValue(forKey: key) else { return }
        bytes -= entry.bytes
    }
}

/// Where kept icons go on disk: the seam between PerchRender, which keeps
/// and reads them back, and the daemon's directory beside the state file.
/// What it writes it never trusts when read back (the renderer decodes a
/// copy as it decodes any icon file, and checks its size).
public protocol KeptIconShelf: AnyObject {
    /// The path of notification `id`'s kept copy of the picture at
    /// `iconPath`, when one is on disk.
    func copy(of id: UInt32, iconPath: String) -> String?
    /// Keeps `png` as that copy (a failure is the shelf's to tell).
    func put(_ png: [UInt8], id: UInt32, iconPath: String)
    /// Throws `id`'s copy away (it is damaged, or no longer wanted).
    func discard(id: UInt32)
}
