/// Which snapshot a journal follows.
///
/// The store numbers its snapshots (the state file's `generation`: 1, 2,
/// …) and begins the journal it empties after each one with a line that
/// names it:
///
///     {"generation":7}
///
/// A journal's records are replayed only over the snapshot they follow.
/// The double fault this prevents: a snapshot is written, emptying the
/// journal then fails (an I/O error, a full disk), and the daemon is
/// killed before it can try again. The journal still holds the records of
/// the previous generation, all of them already in the new snapshot;
/// replayed over it they would bring back notifications dismissed since
/// and an old mode. With generations, that journal is recognised as older
/// and ignored.
///
/// Files from before generations have none: a snapshot without one is
/// generation 0, and so is a journal whose first line is a record. They
/// are read together as they always were.
public enum StateGeneration {
    /// JSON numbers are exact up to 2^53; a store writes one a snapshot.
    public static let range = 0 ... (1 << 53)

    /// The journal's first line for `generation`, sealed, with its newline.
    public static func journalHeader(_ generation: UInt64) -> [UInt8] {
        SealedLine.line(Array("{\"generation\":\(generation)}".utf8))
    }

    /// The generation a journal line names, when it is a header line (an
    /// object whose only member is `generation`); nil for any other line.
    /// A header with a value out of range is an error.
    static func header(_ value: JSONValue) throws(StateError) -> UInt64? {
        guard case .object(let object) = value, object.count == 1, let member = object["generation"] else {
            return nil
        }
        guard let number = member.intValue, range.contains(number) else {
            throw StateError("\"generation\" must be an integer from 0 to \(range.upperBound)")
        }
        return UInt64(number)
    }
}

/// A journal that does not follow the snapshot it was to be replayed over:
/// nothing of it is applied.
public struct JournalMismatch: Equatable, Sendable {
    /// The journal's generation; nil when it has none (a journal written
    /// before generations, found beside a snapshot that has one).
    public var journal: UInt64?
    /// The snapshot's.
    public var snapshot: UInt64

    public init(journal: UInt64?, snapshot: UInt64) {
        self.journal = journal
        self.snapshot = snapshot
    }

    /// The journal is older than the snapshot, which therefore holds all of
    /// its records (a snapshot was written and emptying the journal
    /// failed): ignoring it loses nothing. Otherwise it follows a snapshot
    /// that is not there (an older state file put back, or one set aside),
    /// and its records cannot be trusted to apply.
    public var journalIsOlder: Bool { (journal ?? 0) < snapshot }

    public var description: String {
        let journalName = journal.map { "generation \($0)" } ?? "no generation"
        return "it has \(journalName) and the state file generation \(snapshot)"
    }
}
