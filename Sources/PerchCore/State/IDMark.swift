/// The id high-water mark: a counter value that no id handed out has
/// reached yet, kept in a small file of its own (`state.json.ids`) so that
/// a damaged snapshot or journal can never take the id counter back. An
/// id given to a sender and later given to another would aim the first
/// sender's `CloseNotification` or `replaces_id` at the second one's
/// notification.
///
/// Ids are reserved in blocks: before an id at or past the mark is told
/// to anyone, the store writes a new mark a block further on and syncs it
/// (`reservation(for:)`); ids below it are handed out with no I/O. A write
/// and a sync per Notify would sit between every notification and its
/// toast; one per `block` ids costs a flood nothing it would notice. After
/// a crash ids go on from the mark: at most a block of ids is skipped,
/// none is given twice. A clean stop writes the exact counter, so a
/// restart skips nothing.
///
/// The file is two copies ("slots") of one sealed line (`SealedLine`),
/// each padded to `slotLength` bytes, written in place one at a time, so
/// that a write torn by a power cut damages at most the copy it was
/// writing and the other still holds the mark before it (no id at or past
/// that one was told: the new one was not synced). Whichever copies read
/// whole, the furthest one counts; when either is damaged, the counter
/// goes a further block past everything the state files hold, since the
/// damaged copy may have been the newer one. In place, with a fixed size:
/// a full disk does not stop it (no new block is needed), and there is no
/// temporary file to rename.
///
///     {"next_id":4097      ,"crc":"d2ac0e5f"}
///     {"next_id":3073      ,"crc":"d1b52307"}
///
/// Ids run 1, 2, …, UInt32.max, 1, … (0 is never one, as the
/// notification spec asks), so "further" and "past" are along that ring:
/// a counter less than half the ring ahead of another is ahead of it
/// (serial number arithmetic, as in RFC 1982).
public enum IDMark {
    /// Ids reserved by one write of the mark: a crash skips at most this
    /// many. Small against the 4 294 967 295 ids of the ring.
    public static let block: UInt32 = 1024

    /// The bytes of one slot: the sealed line, padded, and its newline.
    public static let slotLength = 40
    /// The file: two slots.
    public static let fileLength = 2 * slotLength

    /// The counter `count` ids after `counter` (0 skipped).
    public static func advance(_ counter: UInt32, by count: UInt32) -> UInt32 {
        let ring = UInt64(UInt32.max)
        return UInt32((UInt64(max(counter, 1)) - 1 + UInt64(count)) % ring + 1)
    }

    /// How many ids from `counter` to `other` along the ring.
    static func distance(from counter: UInt32, to other: UInt32) -> UInt64 {
        let ring = UInt64(UInt32.max)
        return (UInt64(max(other, 1)) + ring - UInt64(max(counter, 1))) % ring
    }

    /// Whether `counter` is ahead of `other`: reached after it, less than
    /// half the ring on.
    public static func isAhead(_ counter: UInt32, of other: UInt32) -> Bool {
        let distance = distance(from: other, to: counter)
        return distance > 0 && distance < UInt64(UInt32.max) / 2
    }

    /// The furthest of `counters` along the ring (the first when they are
    /// all equal); nil for none.
    public static func furthest(_ counters: [UInt32]) -> UInt32? {
        var furthest: UInt32?
        for counter in counters where counter != 0 {
            if let current = furthest, !isAhead(counter, of: current) { continue }
            furthest = counter
        }
        return furthest
    }

    /// The mark to write before ids up to `nextID` (the counter: the next
    /// id to hand out) may be told, when `mark` (the one on disk, nil when
    /// none) does not cover them; nil when it does. Ids below the mark are
    /// covered, so a mark equal to the counter still is.
    public static func reservation(for nextID: UInt32, mark: UInt32?) -> UInt32? {
        if let mark, !isAhead(nextID, of: mark) { return nil }
        return advance(nextID, by: block)
    }

    // MARK: The file

    /// One slot's bytes for `counter`.
    public static func slot(_ counter: UInt32) -> [UInt8] {
        var line = Array(#"{"next_id":\#(counter)"#.utf8)
        // Padded so that every slot has one length whatever the counter.
        let width = slotLength - SealedLine.sealLength - 1
        line += [UInt8](repeating: UInt8(ascii: " "), count: width - line.count)
        line.append(UInt8(ascii: "}"))
        SealedLine.seal(&line, objectStartingAt: 0)
        line.append(UInt8(ascii: "\n"))
        return line
    }

    /// What a mark file holds.
    public struct Reading: Equatable, Sendable {
        /// Each slot's counter, nil for a slot that could not be read.
        public var slots: [UInt32?]
        /// What was wrong, for the one warning; nil when both slots read.
        public var problem: String?

        /// The furthest counter of the slots that read.
        public var mark: UInt32? { IDMark.furthest(slots.compactMap { $0 }) }
        /// The slot to write next: not the one holding the mark (a torn
        /// write must not take the newest copy with it).
        public var nextSlot: Int {
            guard let mark else { return 0 }
            if slots.count > 1, slots[1] == nil { return 1 }
            return slots.first == mark ? 1 : 0
        }
    }

    /// Reads a mark file's bytes: two slots of `slotLength`.
    public static func read(_ bytes: [UInt8]) -> Reading {
        var slots: [UInt32?] = []
        var problems: [String] = []
        for index in 0 ..< 2 {
            let start = index * slotLength
            guard bytes.count >= start + slotLength else {
                slots.append(nil)
                problems.append("slot \(index + 1) is missing (the file has \(bytes.count) bytes, not \(fileLength))")
                continue
            }
            let value = counter(in: bytes[start ..< start + slotLength])
            slots.append(value.counter)
            if let problem = value.problem { problems.append("slot \(index + 1): \(problem)") }
        }
        if bytes.count > fileLength {
            problems.append("\(bytes.count - fileLength) bytes follow the two slots")
        }
        return Reading(slots: slots, problem: problems.isEmpty ? nil : problems.joined(separator: "; "))
    }

    private static func counter(in slot: ArraySlice<UInt8>) -> (counter: UInt32?, problem: String?) {
        guard slot.last == UInt8(ascii: "\n") else { return (nil, "it does not end its line") }
        switch SealedLine.read(slot.dropLast()) {
        case .damaged(let reason):
            return (nil, reason)
        case .plain:
            return (nil, "it has no checksum")
        case .sealed(let value):
            guard let object = value.objectValue, object.count == 1, let number = object["next_id"]?.intValue,
                  (1 ... Int(UInt32.max)).contains(number)
            else {
                return (nil, "it is not {\"next_id\": 1 to \(UInt32.max)}")
            }
            return (UInt32(number), nil)
        }
    }
}
