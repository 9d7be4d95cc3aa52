import Testing
@testable import PerchCore

private let t0 = Instant(nanoseconds: 1_000_000_000)

@Suite("The SVG renders the daemon waits for")
struct SVGRenderQueueTests {
    @Test("renders are sent one at a time, oldest first, each with its own deadline")
    func oneAtATime() {
        var queue = SVGRenderQueue(timeout: 1)
        let a = queue.add(box: 32, document: [1])!
        let b = queue.add(box: 64, document: [2, 2])!
        #expect(a != b && a != 0 && b != 0)
        let first = queue.sendNext(at: t0)
        #expect(first?.ticket == a && first?.box == 32 && first?.document == [1])
        #expect(queue.sendNext(at: t0) == nil, "nothing more is sent while one is in flight")
        #expect(queue.deadline == t0 + 1)
        #expect(queue.answered(a)?.ticket == a)
        #expect(queue.deadline == nil)
        let second = queue.sendNext(at: t0 + 0.5)
        #expect(second?.ticket == b)
        #expect(queue.deadline == t0 + 1.5)
    }

    @Test("past its bound an SVG is refused, and a place freed takes a new one")
    func bounded() {
        var queue = SVGRenderQueue(maxWaiting: 3)
        let tickets = (0..<3).compactMap { _ in queue.add(box: 32, document: [0]) }
        #expect(tickets.count == 3)
        #expect(queue.add(box: 32, document: [0]) == nil, "the fourth waits for no one")
        _ = queue.sendNext(at: t0)
        #expect(queue.add(box: 32, document: [0]) == nil, "the one in flight still counts")
        _ = queue.answered(tickets[0])
        #expect(queue.add(box: 32, document: [0]) != nil)
        #expect(queue.count == 3)
    }

    @Test("the documents waiting are bounded in bytes too")
    func boundedInBytes() {
        var queue = SVGRenderQueue(maxWaiting: 32, maxBytes: 10)
        #expect(queue.add(box: 32, document: [UInt8](repeating: 0, count: 6)) != nil)
        #expect(queue.add(box: 32, document: [UInt8](repeating: 0, count: 5)) == nil)
        #expect(queue.add(box: 32, document: [UInt8](repeating: 0, count: 4)) != nil)
        let first = queue.sendNext(at: t0)!
        _ = queue.answered(first.ticket)
        #expect(queue.add(box: 32, document: [UInt8](repeating: 0, count: 6)) != nil, "an answer frees its bytes")
    }

    @Test("a render past its deadline is given back once, to be failed; the next is then sent")
    func expiry() {
        var queue = SVGRenderQueue(timeout: 1)
        let slow = queue.add(box: 32, document: [1])!
        let next = queue.add(box: 32, document: [2])!
        _ = queue.sendNext(at: t0)
        #expect(queue.expired(at: t0 + 0.999) == nil)
        #expect(queue.expired(at: t0 + 1)?.ticket == slow)
        #expect(queue.expired(at: t0 + 2) == nil, "once")
        #expect(queue.answered(slow) == nil, "a late answer to it is nobody's")
        #expect(queue.sendNext(at: t0 + 1)?.ticket == next)
    }

    @Test("a helper that says goodbye hands its render back, sent first to the next, twice at most")
    func goodbye() {
        var queue = SVGRenderQueue()
        let a = queue.add(box: 32, document: [1])!
        let b = queue.add(box: 32, document: [2])!
        _ = queue.sendNext(at: t0)
        #expect(queue.helperLeft(saidGoodbye: true) == nil)
        #expect(queue.count == 2)
        let again = queue.sendNext(at: t0)
        #expect(again?.ticket == a && again?.attempts == 2)
        #expect(queue.helperLeft(saidGoodbye: true)?.ticket == a, "a third try is not made")
        #expect(queue.sendNext(at: t0)?.ticket == b)
    }

    @Test("a helper that stops without answering fails the render it had; the rest wait for the next")
    func crash() {
        var queue = SVGRenderQueue()
        let bad = queue.add(box: 32, document: [1])!
        let good = queue.add(box: 32, document: [2])!
        _ = queue.sendNext(at: t0)
        #expect(queue.helperLeft(saidGoodbye: false)?.ticket == bad)
        #expect(queue.helperLeft(saidGoodbye: false) == nil, "nothing was in flight")
        #expect(queue.sendNext(at: t0)?.ticket == good)
    }

    @Test("an answer for a ticket not in flight is the helper's mistake")
    func strayAnswer() {
        var queue = SVGRenderQueue()
        let a = queue.add(box: 32, document: [1])!
        let b = queue.add(box: 32, document: [2])!
        #expect(queue.answered(a) == nil, "not sent yet")
        _ = queue.sendNext(at: t0)
        #expect(queue.answered(b) == nil, "waiting, not in flight")
        #expect(queue.answered(0) == nil)
        #expect(queue.count == 2)
    }

    @Test("giving up empties it, the one in flight first")
    func removeAll() {
        var queue = SVGRenderQueue()
        let a = queue.add(box: 32, document: [1])!
        let b = queue.add(box: 32, document: [2])!
        let c = queue.add(box: 32, document: [3])!
        _ = queue.sendNext(at: t0)
        #expect(queue.removeAll().map(\.ticket) == [a, b, c])
        #expect(queue.count == 0 && queue.deadline == nil)
        #expect(queue.add(box: 32, document: [UInt8](repeating: 0, count: 16 << 20)) != nil, "its bytes are free")
    }
}

@Suite("The frames between the daemon and perch-svg --serve")
struct SVGHelperWireTests {
    private func frame(_ words: [UInt32], _ tail: [UInt8] = []) -> [UInt8] {
        words.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> (8 * $0)) } } + tail
    }

    @Test("a request is SVGQ, the ticket, the box and the document's length, little-endian")
    func request() {
        #expect(SVGHelperWire.encodeRequest(ticket: 7, box: 64, length: 0x0102_0304)
                == Array("SVGQ".utf8) + [7, 0, 0, 0, 64, 0, 0, 0, 4, 3, 2, 1])
    }

    @Test("an image, an error and a goodbye are read")
    func answers() {
        #expect(SVGHelperWire.decodeAnswer(Array("SVGI".utf8) + [9, 0, 0, 0, 32, 0, 0, 0, 16, 0, 0, 0],
                                           hasDescriptor: true, box: 32)
                == .success(.image(ticket: 9, width: 32, height: 16)))
        #expect(SVGHelperWire.decodeAnswer(Array("SVGE".utf8) + [9, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0] + Array("bad".utf8),
                                           hasDescriptor: false, box: 32)
                == .success(.failed(ticket: 9, message: "bad")))
        #expect(SVGHelperWire.decodeAnswer(Array("SVGB".utf8) + [UInt8](repeating: 0, count: 12),
                                           hasDescriptor: false, box: 0) == .success(.goodbye))
    }

    @Test("frames the helper should not send are refused, never trusted")
    func badAnswers() {
        let image = SVGHelperWire.image, error = SVGHelperWire.error
        func decode(_ bytes: [UInt8], fd: Bool = true, box: Int = 32) -> Result<SVGHelperWire.Answer, SVGHelperWire.BadAnswer> {
            SVGHelperWire.decodeAnswer(bytes, hasDescriptor: fd, box: box)
        }
        #expect(decode([]) == .failure(.length(0)))
        #expect(decode(Array(frame([image, 1, 32, 32]).prefix(15))) == .failure(.length(15)))
        #expect(decode(frame([image, 1, 32, 32], [0])) == .failure(.length(17)))
        #expect(decode(frame([0xDEAD_BEEF, 1, 1, 1])) == .failure(.unknownKind(0xDEAD_BEEF)))
        #expect(decode(frame([image, 1, 33, 32])) == .failure(.imageSize(width: 33, height: 32)),
                "larger than the box asked for")
        #expect(decode(frame([image, 1, 0, 32])) == .failure(.imageSize(width: 0, height: 32)))
        #expect(decode(frame([image, 1, 0xFFFF_FFFF, 0xFFFF_FFFF]), box: 1 << 30)
                == .failure(.imageSize(width: 0xFFFF_FFFF, height: 0xFFFF_FFFF)))
        #expect(decode(frame([image, 1, 32, 32]), fd: false) == .failure(.missingPixels))
        #expect(decode(frame([error, 1, 300, 0], [UInt8](repeating: 65, count: 300))) == .failure(.messageLength(300)))
        #expect(decode(frame([error, 1, 5, 0], Array("abc".utf8))) == .failure(.length(19)))
        #expect(decode(frame([error, 1, 0xFFFF_FFFF, 0])) == .failure(.messageLength(0xFFFF_FFFF)))
    }

    @Test("an error's message reaches the log without control characters, and invalid UTF-8 is replaced")
    func messageCleaned() {
        let text: [UInt8] = Array("a\nb\u{1B}[31m".utf8) + [0xFF]
        let answer = SVGHelperWire.decodeAnswer(frame([SVGHelperWire.error, 4, UInt32(text.count), 0], text),
                                                hasDescriptor: false, box: 32)
        #expect(answer == .success(.failed(ticket: 4, message: "a b [31m\u{FFFD}")))
    }

    @Test("pixels are little-endian words, exactly width × height of them")
    func pixels() {
        #expect(SVGHelperWire.pixels([1, 2, 3, 4, 5, 6, 7, 8], width: 2, height: 1) == [0x0403_0201, 0x0807_0605])
        #expect(SVGHelperWire.pixels([1, 2, 3, 4], width: 2, height: 1) == nil)
        #expect(SVGHelperWire.pixels([], width: 0, height: 0) == [])
    }

    @Test("random frames never crash the reader", arguments: 0..<200)
    func random(seed: Int) {
        var generator = SeededGenerator(seed: UInt64(seed))
        let length = Int.random(in: 0...40, using: &generator)
        var bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
        if length >= 4, seed % 2 == 0 { bytes.replaceSubrange(0..<4, with: Array(["SVGI", "SVGE", "SVGB"][seed % 3].utf8)) }
        if case .success(.image(_, let width, let height)) = SVGHelperWire.decodeAnswer(bytes, hasDescriptor: true, box: 64) {
            #expect(width <= 64 && height <= 64)
        }
    }
}

/// splitmix64, for tests that want the same random bytes every run.
private struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
