// Fuzz target: what Perch reads back from disk at start — the state file
// (`PersistentState.read(file:)`: sealed lines, or the document of the
// format before checksums), the journal replayed over it (`JournalReplay`),
// the id mark (`IDMark.read`), and the result put back on the board
// (`NotificationService.restore`).
//
// The input: a byte choosing the journal's chunk size (and which bit of a
// written file to flip), the state file up to the first 0 byte, the journal
// after it. Both are read as id marks too. Properties:
// - reading any of them returns or throws a StateError; never a crash;
// - a state read is written (`encoded()`) as sealed lines that read back
//   equal, undamaged, and need no fix (what the reader repairs stays
//   repaired), with the generation written;
// - one bit flipped anywhere in what was written is noticed (`isDamaged`),
//   every line left whole still reads back (its record is kept), and the
//   counter never goes back: the header's, or past every id kept;
// - `encoded(within:)` keeps its bound and what it writes reads back;
// - the journal replayed in chunks gives what it gives in one piece (the
//   same state, records applied, lines left out and the first damage,
//   valid and torn lengths), and the lengths lie within the journal;
// - the journal is replayed over the file's generation (`StateGeneration`):
//   one that names another applies nothing;
// - an id mark read holds only counters of slots that read whole, and
//   names a problem whenever one does not;
// - restoring the replayed state gives a board with each id once, only
//   ids that were live, no more than `max-queued` and what the screen
//   shows, a counter that hands out none of them again, and a service
//   that runs on (time advances, every toast measured);
// - the state file's bytes read as the quiet choices (`QuietChoices`, the
//   `quiet` file beside it) return or throw; what reads is bounded, and
//   written it reads back equal; put back on the restored service, they
//   keep only snoozes of live ids and ends of modes that are on, and the
//   service runs on past every end.
@testable import PerchCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzState(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let choice = input.byte()
    let chunkSize = Int(choice % 64) + 1
    let file = input.part()
    let journal = input.rest()

    var state = PersistentState()
    var generation: UInt64? = 0
    if let contents = try? PersistentState.read(file: file) {
        require(contents.keptRecords >= 0 && contents.lostRecords >= 0, "negative counts")
        require(contents.isDamaged == (contents.firstDamage != nil), "damage without a first damage")
        checkRoundTrip(contents.state)
        checkFlip(contents.state, at: Int(choice))
        state = contents.state
        generation = contents.generation
    }

    // The journal in one piece, then in chunks.
    var whole = JournalReplay(over: state, generation: generation)
    whole.feed(journal)
    whole.finish()
    var chunked = JournalReplay(over: state, generation: generation)
    var offset = 0
    while offset < journal.count {
        chunked.feed(journal[offset ..< min(journal.count, offset + chunkSize)])
        offset += chunkSize
    }
    chunked.finish()
    require(chunked.state == whole.state, "the journal in chunks of \(chunkSize) gives another state")
    require(chunked.applied == whole.applied && chunked.damagedLines == whole.damagedLines
            && chunked.firstDamage == whole.firstDamage && chunked.mismatch == whole.mismatch
            && chunked.validLength == whole.validLength && chunked.tornLength == whole.tornLength,
            "chunks and one piece disagree")
    require(chunked.validLength + chunked.tornLength <= journal.count,
            "lengths beyond the journal: \(chunked.validLength), \(chunked.tornLength) of \(journal.count)")
    require(chunked.applied + chunked.damagedLines <= journal.count(where: { $0 == 10 }) + 1, "more records than lines")
    if let mismatch = chunked.mismatch {
        require(chunked.applied == 0 && generation.map { mismatch.snapshot == $0 } ?? false,
                "a journal of another generation was replayed")
    }
    if chunked.firstDamage == nil { checkRoundTrip(whole.state) }

    checkMark(file)
    checkMark(journal)
    checkRestore(whole.state, quiet: file)
    return 0
}

private func checkRoundTrip(_ state: PersistentState) {
    let bytes = state.encoded(generation: 5)
    do {
        let again = try PersistentState.read(file: bytes, historyCapacity: state.history.capacity)
        require(again.state == state, "a state written and read back differs")
        require(!again.isDamaged && again.generation == 5, "a state written reads back damaged or of another generation")
        require(again.warnings.isEmpty, "a state written and read back needed fixes: \(again.warnings)")
    } catch {
        require(false, "a state written does not read back: \(error)")
    }

    let limit = 4096
    let (bounded, _) = state.encoded(within: limit)
    require(bounded.count <= limit, "encoded(within: \(limit)) wrote \(bounded.count) bytes")
    require((try? PersistentState(decoding: bounded, historyCapacity: state.history.capacity)) != nil,
            "a bounded state does not read back")
}

/// Flips one bit of the state as written: the damage is noticed, every
/// whole line still counts, and the counter does not go back.
private func checkFlip(_ state: PersistentState, at choice: Int) {
    var bytes = state.encoded(generation: 5)
    guard !bytes.isEmpty else { return }
    let offset = (choice * 7919) % bytes.count
    let original = bytes.split(separator: 10)
    bytes[offset] ^= UInt8(1) << UInt8(choice % 8)
    guard let contents = try? PersistentState.read(file: bytes, historyCapacity: state.history.capacity) else {
        // Nothing sealed is left whole: only a file of one or two lines.
        require(original.count <= 2, "a file of \(original.count) lines with one bit flipped reads as nothing")
        return
    }
    require(contents.isDamaged, "a flipped bit at \(offset) was not noticed")
    // Lines may repeat (two entries alike): counted, not just found.
    var left: [ArraySlice<UInt8>: Int] = [:]
    for line in bytes.split(separator: 10) { left[line, default: 0] += 1 }
    var intact = 0
    for line in original.dropFirst() where left[line, default: 0] > 0 {
        left[line]! -= 1
        intact += 1
    }
    require(contents.keptRecords == intact, "\(intact) whole lines, \(contents.keptRecords) records kept")
    if !contents.headerLost {
        require(contents.state.nextID == state.nextID, "the counter changed with a flipped bit")
    }
}

private func checkMark(_ bytes: [UInt8]) {
    let reading = IDMark.read(bytes)
    require(reading.slots.count == 2, "a mark has two slots")
    let whole = bytes.count == IDMark.fileLength && reading.slots.allSatisfy { $0 != nil }
    require((reading.problem == nil) == whole, "a mark's problem does not match its slots")
    for (index, slot) in reading.slots.enumerated() {
        guard let slot else { continue }
        let bytesOfSlot = bytes[index * IDMark.slotLength ..< (index + 1) * IDMark.slotLength]
        require(slot != 0 && bytesOfSlot.last == 10, "slot \(index) read as \(slot) from a line that is not one")
    }
    require(reading.nextSlot == 0 || reading.nextSlot == 1, "no slot to write next")
}

private func checkRestore(_ state: PersistentState, quiet bytes: [UInt8]) {
    let start = Instant(seconds: 1000)
    let service = NotificationService(config: Config(), wallClock: { 1_700_000_000 })
    _ = service.restore(state, at: start)
    var warnings: [String] = []
    if let choices = try? QuietChoices(file: bytes, warnings: &warnings) {
        require(choices.apps.count <= QuietChoices.maximumApps && choices.snoozes.count <= QuietChoices.maximumSnoozes
                && choices.modeEnds.count <= NotificationLimits.maximumModes, "quiet choices past their bounds")
        var again: [String] = []
        require((try? QuietChoices(file: choices.encoded(), warnings: &again)) == choices && again.isEmpty,
                "quiet choices written do not read back the same")
        _ = service.restoreQuiet(choices, at: start)
        require(service.quiet.snoozes.keys.allSatisfy { service.liveToast(id: $0) != nil },
                "a snooze of a notification that is not live")
        require(service.quiet.modeEnds.keys.allSatisfy(service.modes.contains), "an end of a mode that is off")
    }

    let snapshot = service.snapshot(at: start)
    let ids = snapshot.live.map(\.notification.id)
    require(Set(ids).count == ids.count, "an id live twice after restore: \(ids)")
    let before = Set(state.live.map(\.notification.id))
    require(ids.allSatisfy(before.contains), "restore made up a live id: \(ids) from \(before)")
    require(ids.count <= service.restoreLimit, "restored \(ids.count), more than \(service.restoreLimit)")
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
