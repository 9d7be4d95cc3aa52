import Testing
import PerchCore

/// A state document with the given members (JSON text) and the rest empty.
private func document(nextID: UInt32 = 2, modes: String = "[]", history: String = "[]", live: String = "[]")
    -> [UInt8]
{
    Array(#"{"version":1,"next_id":\#(nextID),"modes":\#(modes),"history":\#(history),"live":\#(live)}"#.utf8)
}

private func liveEntry(_ id: UInt32, remaining: String = "null", timeout: String? = nil) -> String {
    let timeoutMember = timeout.map { #","timeout":\#($0)"# } ?? ""
    return #"{"notification":{"id":\#(id),"app":"a","title":"t\#(id)","body":"","urgency":"normal"\#(timeoutMember)},"#
        + #""remaining":\#(remaining),"posted_at":4}"#
}

private func historyEntry(_ id: UInt32, timeout: String? = nil) -> String {
    let timeoutMember = timeout.map { #","timeout":\#($0)"# } ?? ""
    return #"{"notification":{"id":\#(id),"app":"a","title":"t\#(id)","body":"","urgency":"normal"\#(timeoutMember)},"#
        + #""reason":"expired","closed_at":5}"#
}

private func decode(_ bytes: [UInt8]) throws -> (PersistentState, [String]) {
    var warnings: [String] = []
    let state = try PersistentState(decoding: bytes, warnings: &warnings)
    return (state, warnings)
}

/// A year of uptime: where a timer restored at start would be armed from.
private let uptime = Instant(seconds: 365 * 86_400)

@Suite("State read back")
struct StateReadBackTests {
    @Test("a remaining time of 1e10 s is cut to a day, and a timer armed with it does not overflow")
    func hugeRemaining() throws {
        let (state, warnings) = try decode(document(live: "[\(liveEntry(1, remaining: "1e10"))]"))
        #expect(state.live[0].remaining == NotificationLimits.longestDisplayTime)
        #expect(warnings == [#""live[0].remaining" is 10000000000.0 s, more than any display time; cut to 86400 s"#])
        // Before the fix this trapped (Int64 nanoseconds), at every start.
        _ = uptime + state.live[0].remaining!
    }

    @Test("a history timeout of 1e300 s is cut to a day, as is a live one")
    func hugeTimeout() throws {
        let (state, warnings) = try decode(document(nextID: 3, history: "[\(historyEntry(1, timeout: "1e300"))]",
                                                    live: "[\(liveEntry(2, timeout: "1e300"))]"))
        #expect(state.history.entries[0].notification.timeout == NotificationLimits.longestDisplayTime)
        #expect(state.live[0].notification.timeout == NotificationLimits.longestDisplayTime)
        #expect(warnings == [
            #""history[0].notification": timeout of 1e+300 s is longer than 86400 s; cut to that"#,
            #""live[0].notification": timeout of 1e+300 s is longer than 86400 s; cut to that"#,
        ])
        _ = uptime + state.history.entries[0].notification.timeout!
    }

    @Test("a timeout of 0 (until dismissed) stays 0, and a negative one is still refused")
    func zeroAndNegativeTimeouts() throws {
        let (state, warnings) = try decode(document(live: "[\(liveEntry(1, timeout: "0"))]"))
        #expect(state.live[0].notification.timeout == 0)
        #expect(warnings.isEmpty)
        #expect(throws: StateError.self) { try decode(document(live: "[\(liveEntry(1, timeout: "-1"))]")) }
        #expect(throws: StateError.self) { try decode(document(live: "[\(liveEntry(1, remaining: "-1"))]")) }
    }

    @Test("a next id at or below a live or history id moves past the highest of them", arguments: [
        (3, [7, 5], [], 8), (5, [5], [], 6), (2, [1], [9], 10), (UInt32.max, [UInt32.max], [], 1),
    ] as [(UInt32, [UInt32], [UInt32], UInt32)])
    func nextIDPastIDs(_ nextID: UInt32, _ liveIDs: [UInt32], _ historyIDs: [UInt32], _ expected: UInt32) throws {
        let (state, warnings) = try decode(document(
            nextID: nextID, history: "[\(historyIDs.map { historyEntry($0) }.joined(separator: ","))]",
            live: "[\(liveIDs.map { liveEntry($0) }.joined(separator: ","))]"))
        #expect(state.nextID == expected)
        #expect(warnings.count == 1)
        #expect(warnings.first?.hasPrefix(#""next_id" \#(nextID) would hand out id"#) == true)
    }

    @Test("a counter that wrapped past UInt32.max is left alone while the old high ids are live")
    func wrappedCounter() throws {
        let (state, warnings) = try decode(document(nextID: 4, live: "[\(liveEntry(4_294_967_290)),\(liveEntry(3))]"))
        #expect(state.nextID == 4)
        #expect(warnings.isEmpty)
    }

    @Test("one id live twice keeps the later entry, with a warning")
    func duplicateLive() throws {
        let (state, warnings) = try decode(document(
            nextID: 9, live: "[\(liveEntry(1, remaining: "1")),\(liveEntry(2)),\(liveEntry(1, remaining: "2"))]"))
        #expect(state.live.map(\.notification.id) == [2, 1])
        #expect(state.live[1].remaining == 2)
        #expect(warnings == ["notification 1 is live twice; the earlier entry is left out"])
    }

    @Test("an entry with id 0 is left out")
    func zeroID() throws {
        let (state, warnings) = try decode(document(history: "[\(historyEntry(0))]", live: "[\(liveEntry(0))]"))
        #expect(state.history.isEmpty && state.live.isEmpty)
        #expect(warnings.count == 2)
    }

    @Test("a body over the limit in a file is cut when read, like one that comes in")
    func longBodyRead() throws {
        let body = String(repeating: "x", count: 100_000)
        let entry = #"{"notification":{"id":1,"app":"a","title":"t","body":"\#(body)","urgency":"normal"},"#
            + #""reason":"expired","closed_at":5}"#
        let (state, warnings) = try decode(document(history: "[\(entry)]"))
        #expect(state.history.entries[0].notification.body.utf8.count == NotificationLimits.maximumBodyLength)
        #expect(warnings == [#""history[0].notification": body of 100000 bytes cut to 65536"#])
    }

    @Test("modes past the limits are left out when read")
    func modesRead() throws {
        let long = String(repeating: "m", count: 100)
        let (state, warnings) = try decode(document(modes: #"["dnd","\#(long)"]"#))
        #expect(state.modes == ["dnd"])
        #expect(warnings == [#""modes": mode name of 100 bytes is longer than 64; left out"#])
    }

    @Test("a state Perch wrote reads back without a single warning")
    func cleanStateHasNoWarnings() throws {
        let state = PersistentState(
            history: History(entries: [HistoryEntry(notification: Notification(id: 1, title: "a", timeout: 3),
                                                    reason: .expired, closedAt: 1)]),
            modes: ["dnd"],
            live: [LiveNotification(notification: Notification(id: 2, title: "b"), remaining: 86_400, postedAt: 2)],
            nextID: 3)
        let (decoded, warnings) = try decode(state.encoded(within: NotificationLimits.maximumStateSize).bytes)
        #expect(decoded == state)
        #expect(warnings.isEmpty)
    }
}

@Suite("State written within the reader's limit")
struct BoundedStateWriterTests {
    @Test("two D-Bus bodies of 9 MB make a state file the reader takes, with all of history")
    func twoHugeBodies() throws {
        let body = String(repeating: "x", count: 9 << 20)
        let state = PersistentState(
            history: History(entries: [1, 2].map {
                HistoryEntry(notification: Notification(id: $0, title: "big", body: body), reason: .expired,
                             closedAt: 10)
            }),
            modes: ["dnd"], nextID: 3)
        // What was written before: 18.9 MB, which the 16 MiB reader set aside.
        #expect(state.encoded().count > NotificationLimits.maximumStateSize)
        let (bytes, warnings) = state.encoded(within: NotificationLimits.maximumStateSize)
        #expect(bytes.count <= NotificationLimits.maximumStateSize)
        #expect(warnings == ["history entry 1: body of 9437184 bytes cut to 65536",
                             "history entry 2: body of 9437184 bytes cut to 65536"])
        let decoded = try PersistentState(decoding: bytes)
        #expect(decoded.history.entries.map(\.notification.id) == [1, 2])
        #expect(decoded.modes == ["dnd"])
        #expect(decoded.history.entries[0].notification.body.utf8.count == NotificationLimits.maximumBodyLength)
    }

    @Test("a body that escapes to six times its size still fits")
    func escapedBodies() throws {
        // Control characters are written as \u00XX: 64 KiB become 384 KiB.
        let body = String(repeating: "\u{1}", count: NotificationLimits.maximumBodyLength)
        let entries = (1 ... 16).map {
            HistoryEntry(notification: Notification(id: UInt32($0), title: "t", body: body), reason: .expired,
                         closedAt: 1)
        }
        let state = PersistentState(history: History(entries: entries), nextID: 17)
        let maximum = 2 << 20
        let (bytes, warnings) = state.encoded(within: maximum)
        #expect(bytes.count <= maximum)
        let decoded = try PersistentState(decoding: bytes)
        // The newest are kept, as many as fit: 5 of 384 KiB in 2 MiB.
        #expect(decoded.history.entries.map(\.notification.id) == Array(12 ... 16))
        #expect(warnings.count == 1)
        #expect(warnings[0].contains("oldest history entries"))
    }

    @Test("past the maximum the oldest history goes first, then the oldest live, no more than needed")
    func dropsOldestFirst() throws {
        let text = String(repeating: "y", count: 500)
        let state = PersistentState(
            history: History(entries: (1 ... 10).map {
                HistoryEntry(notification: Notification(id: UInt32($0), title: text), reason: .expired, closedAt: 1)
            }),
            live: (11 ... 13).map {
                LiveNotification(notification: Notification(id: UInt32($0), title: text), remaining: 1, postedAt: 1)
            },
            nextID: 14)
        let full = state.encoded().count
        let justHistory = state.encoded(within: full - 1_200)
        let keptHistory = try PersistentState(decoding: justHistory.bytes)
        #expect(justHistory.bytes.count <= full - 1_200)
        // Each entry is about 600 bytes: two or three of them go, none of live.
        #expect(keptHistory.history.entries.map(\.notification.id).first.map { (3 ... 4).contains($0) } == true)
        #expect(keptHistory.history.latest?.notification.id == 10)
        #expect(keptHistory.live.count == 3)

        let noHistory = state.encoded(within: full - 10 * 600 - 500)
        let keptLive = try PersistentState(decoding: noHistory.bytes)
        #expect(keptLive.history.isEmpty)
        #expect(keptLive.live.map(\.notification.id) == [12, 13])
        #expect(noHistory.warnings.last?.contains("the 10 oldest history entries and the 1 oldest live") == true)
        #expect(keptLive.nextID == 14)
    }

    @Test("a state that fits is written exactly as encoded() writes it")
    func fitsUnchanged() {
        let state = PersistentState(modes: ["a"], nextID: 5)
        let (bytes, warnings) = state.encoded(within: 1_000)
        #expect(bytes == state.encoded())
        #expect(warnings.isEmpty)
    }
}
