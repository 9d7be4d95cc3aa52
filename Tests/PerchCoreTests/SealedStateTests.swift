import Testing
@testable import PerchCore

private func note(_ id: UInt32, _ title: String = "t") -> Notification {
    Notification(id: id, app: "a", title: "\(title)\(id)", body: "body of \(id)")
}

/// A small state with every kind of line: modes, history, live.
private let small = PersistentState(
    history: History(entries: [
        HistoryEntry(notification: note(3), reason: .expired, closedAt: 1_767_225_600),
        HistoryEntry(notification: note(5), reason: .dismissedByUser, closedAt: 1_767_225_601),
    ]),
    modes: ["dnd"],
    live: [
        LiveNotification(notification: note(7), remaining: 2.5, postedAt: 1_767_225_602),
        LiveNotification(notification: note(8), remaining: nil, postedAt: 1_767_225_603),
    ],
    nextID: 9)

/// The lines of `bytes`, each without its newline.
private func lines(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
    bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true)
}

/// The object of one sealed line (with its newline) as written, the seal
/// checked and taken off: what the readers of records are given.
func sealedObject(_ line: [UInt8]) throws -> JSONValue {
    guard line.last == UInt8(ascii: "\n"), case .sealed(let object) = SealedLine.read(line.dropLast()) else {
        throw StateError("not a sealed line: \(String(decoding: line, as: UTF8.self))")
    }
    return object
}

/// Lines joined again, each with its newline.
private func joined(_ lines: some Sequence<ArraySlice<UInt8>>) -> [UInt8] {
    var bytes: [UInt8] = []
    for line in lines { bytes += line + [UInt8(ascii: "\n")] }
    return bytes
}

@Suite("Checksums")
struct ChecksumTests {
    @Test("CRC-32 gives zlib's values")
    func crcValues() {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(CRC32.checksum([UInt8]()) == 0)
        #expect(CRC32.checksum(Array("{\"generation\":7".utf8)) == 0x46E2_1E5C)
    }

    @Test("a sealed line reads back as its object without the crc member; a changed byte is damage")
    func sealedLine() {
        let line = SealedLine.line(Array(#"{"modes":["dnd"]}"#.utf8))
        #expect(String(decoding: line, as: UTF8.self) == #"{"modes":["dnd"],"crc":"d5095ab9"}"# + "\n")
        #expect(SealedLine.read(line.dropLast()) == .sealed(["modes": ["dnd"]]))
        var flipped = line
        flipped[10] ^= 0x01
        #expect(SealedLine.read(flipped.dropLast()) == .damaged("its checksum does not match"))
        #expect(SealedLine.read(Array(#"{"modes":[]}"#.utf8)[...]) == .plain(["modes": []]))
        if case .damaged(let why) = SealedLine.read(Array("{nope".utf8)[...]) {
            #expect(why.hasPrefix("not JSON"))
        } else {
            Issue.record("a line that is not JSON should be damaged")
        }
    }
}

@Suite("State file damage")
struct StateFileDamageTests {
    @Test("a bit flipped anywhere in a small state file loses only the lines it touched, never the counter")
    func everyOffsetEveryBit() throws {
        let bytes = small.encoded(generation: 6)
        let original = lines(bytes)
        var flips = 0
        for offset in bytes.indices {
            for bit in 0 ..< 8 {
                var damaged = bytes
                damaged[offset] ^= UInt8(1) << UInt8(bit)
                let contents = try PersistentState.read(file: damaged)
                flips += 1
                let whole = Set(lines(damaged))
                let intact = original.map { whole.contains($0) }
                let where_ = "byte \(offset) bit \(bit)"
                #expect(contents.isDamaged, "\(where_): the damage was not noticed")
                // Every record whose line is whole is there; nothing else is.
                var expected = PersistentState(history: History(), modes: intact[1] ? small.modes : [])
                expected.history = History(entries: small.history.entries.enumerated()
                    .filter { intact[2 + $0.offset] }.map(\.element))
                expected.live = small.live.enumerated().filter { intact[4 + $0.offset] }.map(\.element)
                #expect(contents.state.modes == expected.modes, "\(where_)")
                #expect(contents.state.history == expected.history, "\(where_)")
                #expect(contents.state.live == expected.live, "\(where_)")
                #expect(contents.keptRecords == intact.dropFirst().filter { $0 }.count, "\(where_)")
                // The counter never goes back: the header's, or past every
                // id left when the header is lost.
                if intact[0] {
                    #expect(!contents.headerLost && contents.generation == 6 && contents.state.nextID == 9,
                            "\(where_)")
                    #expect(contents.lostRecords == intact.dropFirst().filter { !$0 }.count, "\(where_)")
                } else {
                    #expect(contents.headerLost && contents.generation == nil, "\(where_)")
                    let ids = contents.state.live.map(\.notification.id)
                        + contents.state.history.entries.map(\.notification.id)
                    #expect(ids.allSatisfy { $0 < contents.state.nextID }, "\(where_)")
                }
                #expect(contents.warnings.isEmpty, "\(where_): \(contents.warnings)")
            }
        }
        #expect(flips == bytes.count * 8)
    }

    @Test("a file cut short at a line's end is noticed by the header's count")
    func cutShort() throws {
        let bytes = small.encoded(generation: 2)
        let kept = joined(lines(bytes).prefix(4))
        let contents = try PersistentState.read(file: kept)
        #expect(contents.lostRecords == 2 && contents.keptRecords == 3)
        #expect(contents.firstDamage == "the file ends after 3 of its 5 records")
        #expect(contents.state.live.isEmpty && contents.state.history.count == 2)
    }

    @Test("a sealed header of a newer version is refused whole, not read in part")
    func newerVersion() {
        let header = SealedLine.line(Array(#"{"version":3,"generation":1,"next_id":2,"records":1}"#.utf8))
        let bytes = header + joined(lines(small.encoded()).dropFirst())
        #expect(throws: StateError(#""version" is 3; this Perch reads versions 1 and 2"#)) {
            try PersistentState.read(file: bytes)
        }
    }

    @Test("a file with no whole sealed line is read as a document of the format before checksums")
    func noSealedLine() {
        #expect(throws: StateError.self) { try PersistentState.read(file: Array("garbage\nmore\n".utf8)) }
        var bytes = Array(#"{"modes":[],"crc":"00000000"}"#.utf8)
        bytes.append(10)
        #expect(throws: StateError.self) { try PersistentState.read(file: bytes) }
    }

    @Test("a line without a checksum in a sealed file is damage, even when it is a good record")
    func plainLineInSealedFile() throws {
        var bytes = small.encoded()
        bytes += Array(#"{"modes":["sneaked in"]}"#.utf8) + [10]
        let contents = try PersistentState.read(file: bytes)
        #expect(contents.state.modes == ["dnd"])
        #expect(contents.firstDamage == "line 7: it has no checksum")
    }
}

@Suite("Id mark")
struct IDMarkTests {
    @Test("counters run along the ring of ids, skipping 0")
    func ring() {
        #expect(IDMark.advance(1, by: 1024) == 1025)
        #expect(IDMark.advance(UInt32.max, by: 1) == 1)
        #expect(IDMark.advance(UInt32.max - 10, by: 1024) == 1014)
        #expect(IDMark.isAhead(5, of: UInt32.max - 3))
        #expect(!IDMark.isAhead(UInt32.max - 3, of: 5))
        #expect(!IDMark.isAhead(7, of: 7))
        #expect(IDMark.furthest([7, 1030, 9]) == 1030)
        #expect(IDMark.furthest([UInt32.max - 2, 3]) == 3)
        #expect(IDMark.furthest([]) == nil)
    }

    @Test("a mark is written when the counter passes it, a block on; a counter at the mark is covered")
    func reservation() {
        #expect(IDMark.reservation(for: 1, mark: nil) == 1 + IDMark.block)
        #expect(IDMark.reservation(for: 500, mark: 1025) == nil)
        #expect(IDMark.reservation(for: 1025, mark: 1025) == nil)
        #expect(IDMark.reservation(for: 1026, mark: 1025) == 1026 + IDMark.block)
        #expect(IDMark.reservation(for: 3, mark: UInt32.max - 5) == 3 + IDMark.block)
    }

    @Test("a slot is one sealed line of a fixed length, whatever the counter")
    func slots() {
        for counter: UInt32 in [1, 42, 4097, UInt32.max] {
            let slot = IDMark.slot(counter)
            #expect(slot.count == IDMark.slotLength)
            #expect(IDMark.read(slot + slot) == IDMark.Reading(slots: [counter, counter], problem: nil))
        }
        #expect(String(decoding: IDMark.slot(4097), as: UTF8.self) == #"{"next_id":4097      ,"crc":"d2ac0e5f"}"# + "\n")
    }

    @Test("the furthest slot that reads is the mark, and the next write goes to the other one")
    func twoSlots() {
        let reading = IDMark.read(IDMark.slot(2049) + IDMark.slot(3073))
        #expect(reading.mark == 3073 && reading.nextSlot == 0)
        #expect(IDMark.read(IDMark.slot(3073) + IDMark.slot(2049)).nextSlot == 1)
    }

    @Test("a flipped bit anywhere in the mark file is noticed, and never read as a further mark")
    func everyBit() {
        let bytes = IDMark.slot(2049) + IDMark.slot(3073)
        for offset in bytes.indices {
            for bit in 0 ..< 8 {
                var damaged = bytes
                damaged[offset] ^= UInt8(1) << UInt8(bit)
                let reading = IDMark.read(damaged)
                #expect(reading.problem != nil, "byte \(offset) bit \(bit)")
                #expect(reading.slots.compactMap { $0 }.allSatisfy { [2049, 3073].contains($0) })
                #expect(reading.slots.compactMap { $0 }.count == 1, "byte \(offset) bit \(bit)")
            }
        }
        #expect(IDMark.read(Array(bytes.prefix(50))).slots == [2049, nil])
        #expect(IDMark.read(bytes + [10]).problem == "1 bytes follow the two slots")
    }
}
