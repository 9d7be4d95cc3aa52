// Fuzz target: what Perch reads back from disk at start — the state file
// (`PersistentState(decoding:)`), the journal replayed over it
// (`replay(journal:)`, `JournalReplay`), and the result put back on the
// board (`NotificationService.restore`).
//
// The input: a byte choosing the journal's chunk size, the state file up
// to the first 0 byte, the journal after it. Properties:
// - reading either file returns or throws a StateError; never a crash;
// - a state read is written (`encoded()`) as a file that reads back equal
//   and needs no fix (what the reader repairs stays repaired);
// - `encoded(within:)` keeps its bound and what it writes reads back;
// - the journal replayed in chunks gives what it gives in one piece (the
//   same state, records applied, valid length, error), and the valid
//   and torn lengths lie within the journal;
// - the journal is replayed over the file's generation (`StateGeneration`):
//   one that names another applies nothing; a generation written with the
//   state reads back with it;
// - restoring the replayed state gives a board with each id once, only
//   ids that were live, a counter that hands out none of them again,
//   and a service that runs on (time advances, every toast measured).
@testable import PerchCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzState(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let chunkSize = Int(input.byte() % 64) + 1
    let file = input.part()
    let journal = input.rest()

    var state = PersistentState()
    var generation: UInt64 = 0
    var fixes: [String] = []
    if let read = try? PersistentState(decoding: file, warnings: &fixes, generation: &generation) {
        checkRoundTrip(read)
        checkGeneration(read, generation)
        state = read
    }

    // The journal in one piece, then in chunks.
    var whole = state
    let replayed: Result<Int, StateError>
    if generation == 0 {
        replayed = Result { () throws(StateError) in try whole.replay(journal: journal) }
    } else {
        var once = JournalReplay(over: state, generation: generation)
        once.feed(journal)
        once.finish()
        whole = once.state
        replayed = once.error.map { .failure($0) } ?? .success(once.applied)
    }
    var chunked = JournalReplay(over: state, generation: generation)
    var offset = 0
    while offset < journal.count {
        chunked.feed(journal[offset ..< min(journal.count, offset + chunkSize)])
        offset += chunkSize
    }
    chunked.finish()
    require(chunked.state == whole, "the journal in chunks of \(chunkSize) gives another state")
    switch replayed {
    case .success(let applied):
        require(chunked.error == nil && chunked.applied == applied, "chunks and one piece disagree on success")
    case .failure(let error):
        require(chunked.error == error, "chunks and one piece stop at different errors")
    }
    require(chunked.validLength <= journal.count && chunked.tornLength <= journal.count,
            "lengths beyond the journal: \(chunked.validLength), \(chunked.tornLength) of \(journal.count)")
    require(chunked.applied <= journal.count(where: { $0 == 10 }), "more records than lines")
    if let mismatch = chunked.mismatch {
        require(chunked.applied == 0 && chunked.error == nil && mismatch.snapshot == generation
                && mismatch.journal != generation, "a journal of another generation was replayed")
    }
    if chunked.error == nil { checkRoundTrip(whole) }

    checkRestore(whole)
    return 0
}

private func checkRoundTrip(_ state: PersistentState) {
    var warnings: [String] = []
    let bytes = state.encoded()
    do {
        let again = try PersistentState(decoding: bytes, historyCapacity: state.history.capacity,
                                        warnings: &warnings)
        require(again == state, "a state written and read back differs")
        require(warnings.isEmpty, "a state written and read back needed fixes: \(warnings)")
    } catch {
        require(false, "a state written does not read back: \(error)")
    }

    let limit = 4096
    let (bounded, _) = state.encoded(within: limit)
    require(bounded.count <= limit, "encoded(within: \(limit)) wrote \(bounded.count) bytes")
    require((try? PersistentState(decoding: bounded, historyCapacity: state.history.capacity)) != nil,
            "a bounded state does not read back")
}

private func checkGeneration(_ state: PersistentState, _ generation: UInt64) {
    var read: UInt64 = 0
    var warnings: [String] = []
    let next = min(generation + 1, UInt64(StateGeneration.range.upperBound))
    let again = try? PersistentState(decoding: state.encoded(generation: next), historyCapacity: state.history.capacity,
                                     warnings: &warnings, generation: &read)
    require(again == state && read == next, "a state written with generation \(next) read back as \(read)")
}

private func checkRestore(_ state: PersistentState) {
    let start = Instant(seconds: 1000)
    var service = NotificationService(config: Config(), wallClock: { 1_700_000_000 })
    _ = service.restore(state, at: start)

    let snapshot = service.snapshot(at: start)
    let ids = snapshot.live.map(\.notification.id)
    require(Set(ids).count == ids.count, "an id live twice after restore: \(ids)")
    let before = Set(state.live.map(\.notification.id))
    require(ids.allSatisfy(before.contains), "restore made up a live id: \(ids) from \(before)")
    require(PersistentState.counterPast(ids, counter: snapshot.nextID) == nil,
            "the counter \(snapshot.nextID) would hand out a live id again: \(ids)")
    require(snapshot.modes == Set(state.modes).sorted(), "restore changed the modes")

    // Run on: measure every toast, let the timers run out.
    var now = start
    for _ in 0..<4 {
        for id in service.unmeasured { service.setHeight(60, of: id, at: now) }
        _ = service.advance(to: now)
        now = now + 3600
    }
}
