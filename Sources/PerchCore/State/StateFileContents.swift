/// What `PersistentState.read(file:historyCapacity:)` found in a state file.
public struct StateFileContents: Equatable, Sendable {
    /// Every record that could be read, made consistent.
    public var state: PersistentState
    /// The snapshot's generation; nil when its header line could not be
    /// read (the journal beside it then says which it is).
    public var generation: UInt64?
    /// The format the file was written in: `PersistentState.version`, or
    /// `documentVersion` for a file from before checksums.
    public var version: Int
    /// The header line could not be read: `generation` is unknown, and the
    /// id counter was taken from the ids the records hold.
    public var headerLost = false
    /// Records that could not be read: in lines that are damaged, or
    /// counted by the header and not in the file.
    public var lostRecords = 0
    /// Records read and kept.
    public var keptRecords = 0
    /// What was wrong first (`line N: …`); nil when nothing was.
    public var firstDamage: String?
    /// Values that were fixed (out of range, an id live twice, …).
    public var warnings: [String] = []

    /// Something in the file could not be read and was left out.
    public var isDamaged: Bool { firstDamage != nil }
}
