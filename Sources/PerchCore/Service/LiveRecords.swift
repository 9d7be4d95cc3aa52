/// What the service keeps about one live notification besides the
/// notification itself (the board holds that): who sent it, where it was
/// asked to go, what its reply field holds, how old its toast says it is.
/// Every field is empty until something sets it; a record with nothing in
/// it is not kept at all.
struct LiveRecord: Equatable {
    /// The control client that posted it; it hears the outcome.
    var sender: ClientToken?
    /// How many live notifications its group's toast stands for, when two
    /// or more (group-by; see `NotificationService+Group`).
    var groupCount: Int?
    /// Where its sender asked it to go against the config (kept so that a
    /// reload does not move it back).
    var overrides: PresentationOverrides?
    /// The synchronous tag (x-canonical-private-synchronous) it answers to.
    var synchronousTag: SynchronousTag?
    /// Its content changed while on screen: measured again before the next
    /// frame (see `NotificationService.unmeasured`).
    var needsMeasuring = false
    /// What is typed in its reply field so far (kept when it is replaced).
    var draft: ReplyDraft?
    /// Unix time in seconds it was posted (or last replaced), as its `live`
    /// record has it: the center dates it by this and the snapshot keeps it.
    var postedAt: Int64?
    /// The sound it made (or would have made, had it not been quiet): a
    /// replacement naming the same one plays nothing.
    var sound: NotificationSound?
    /// For an app's count toast (a collapsed burst), how many it counted.
    var collapsedCount: Int?
    /// The service's summary of what a hold kept back: its click opens
    /// the center.
    var isMissedSummary = false
    /// When it arrived (or was last replaced or brought back), for the age
    /// its toast shows (`show-age-after`).
    var arrivedAt: Instant?
    /// The age in whole seconds its toast shows now, once old enough.
    var ageShown: Int?
}

/// The records of the live notifications, one per id, with the two
/// indexes the service asks on every post and frame kept beside them: the
/// id each synchronous tag names, and the ids to measure again. Removing a
/// record removes everything the service knew of that notification, its
/// places in the indexes too, so retiring one is one call and nothing
/// outlives it.
struct LiveRecords {
    private var records: [UInt32: LiveRecord] = [:]
    private var idsByTag: [SynchronousTag: UInt32] = [:]
    /// The ids whose record says `needsMeasuring`.
    private(set) var unmeasured: Set<UInt32> = []

    /// The record of `id`; an empty one when there is none. Setting an
    /// empty record drops it.
    subscript(id: UInt32) -> LiveRecord {
        get { records[id] ?? LiveRecord() }
        set {
            let old = records[id]
            if old?.synchronousTag != newValue.synchronousTag {
                if let tag = old?.synchronousTag, idsByTag[tag] == id { idsByTag[tag] = nil }
                if let tag = newValue.synchronousTag { idsByTag[tag] = id }
            }
            if old?.needsMeasuring ?? false != newValue.needsMeasuring {
                if newValue.needsMeasuring { unmeasured.insert(id) } else { unmeasured.remove(id) }
            }
            records[id] = newValue == LiveRecord() ? nil : newValue
        }
    }

    /// Forgets all that was kept about `id`.
    mutating func remove(_ id: UInt32) {
        guard records[id] != nil else { return }
        self[id] = LiveRecord()
    }

    /// The live notification that last took `tag`.
    func id(tagged tag: SynchronousTag) -> UInt32? { idsByTag[tag] }

    /// Each record's id and arrival, for those that have one.
    var arrivals: [(id: UInt32, arrivedAt: Instant)] {
        records.compactMap { id, record in record.arrivedAt.map { (id, $0) } }
    }

    /// How many notifications have a record.
    var count: Int { records.count }
}
