/// The state file's first line (format 2): its version, the snapshot's
/// generation, the id counter, and how many record lines follow.
struct SnapshotHeader: Equatable {
    var version: Int
    var generation: UInt64
    var nextID: UInt32
    var records: Int

    /// The header line, sealed and with its newline.
    var line: [UInt8] {
        SealedLine.line(Array(
            #"{"version":\#(version),"generation":\#(generation),"next_id":\#(nextID),"records":\#(records)}"#.utf8))
    }

    /// Reads a header line's object. A version other than this Perch's is
    /// an error of its own (`isNewer`), so that the file is not taken for
    /// a damaged one.
    init(json: JSONValue) throws(StateError) {
        var object = try StateObjectReader(json, at: "")
        guard let version = try object.required("version").intValue else {
            throw StateError("\"version\" must be an integer")
        }
        guard version == PersistentState.version else {
            throw StateError("\"version\" is \(version); this Perch reads versions \(PersistentState.documentVersion) "
                + "and \(PersistentState.version)")
        }
        self.version = version
        generation = UInt64(try object.integer("generation", in: StateGeneration.range))
        nextID = UInt32(try object.integer("next_id", in: 1 ... Int(UInt32.max)))
        records = try object.integer("records", in: 0 ... NotificationLimits.maximumStateSize)
        try object.rejectUnread()
    }

    init(version: Int = PersistentState.version, generation: UInt64, nextID: UInt32, records: Int) {
        self.version = version
        self.generation = generation
        self.nextID = nextID
        self.records = records
    }

    /// Whether a line's object is a header at all (it names a version).
    static func isHeader(_ json: JSONValue) -> Bool {
        json.objectValue?.contains(key: "version") == true
    }

    /// The version a header line names, when it is an integer.
    static func version(of json: JSONValue) -> Int? {
        json.objectValue?["version"]?.intValue
    }
}
