import PerchCore

/// The moments a user expects the daemon's memory to fall, at which freed
/// heap memory is given back to the kernel (`Heap.releaseFree`; glibc keeps
/// it otherwise):
/// - a flood drains: at once each time the board has shrunk by
///   `floodShrink` below its peak, and once more when it has stayed still
///   for `quiet` seconds after that (the burst's tail, which no threshold
///   catches);
/// - the center has slid out;
/// - the stack has gone from busy to empty (the last toast closed, nothing
///   queued or held).
/// The last two wait for the screen to rest, no frame asked for: a trim
/// walks the whole heap, so it must not delay an animation's frame, and it
/// must come after the slide or the fade has freed its images. Not every
/// turn: a notification that comes and goes while others stay gives
/// nothing back, and no timer is armed without a flood.
///
/// Beyond the heap, once the daemon has gone quiet — `idle` seconds with
/// no loop turn but the idle check's own — the pages of the files it maps
/// read-only and no longer runs go back too (`MappedFiles`: code and
/// read-only data, its own and its libraries', the fonts). Not sooner:
/// each next turn maps what it runs again (a minor fault per 64 KB), which
/// a chat that sends a message every few seconds should not pay for every
/// message. One idle check is armed per busy spell, when it starts; while
/// the spell lasts the check, when it comes, is put off to `idle` after the
/// last busy turn, so a busy daemon wakes for it once every `idle` seconds
/// at most, and an idle one never.
struct HeapMoments {
    static let floodShrink = 256
    static let quiet = 0.25
    static let idle = 10.0

    /// The most notifications the board held since memory was given back.
    private var boardPeak = 0
    /// The center was open, or the board held notifications, since then.
    private var centerWasOpen = false
    private var stackWasBusy = false
    /// The board's size at the last turn, and when a drained flood's tail
    /// is given back if it stays so (nil: no flood since the last time).
    private var lastCount = 0
    private(set) var floodTail: Instant?
    /// The last busy turn since the files were given back (nil: none).
    private var lastBusy: Instant?
    /// When the idle check is armed for (nil: not armed).
    private(set) var idleCheck: Instant?

    /// At the end of a turn, with what the screen shows: whether to give
    /// memory back now (and, if so, counting starts again).
    mutating func isMoment(boardCount: Int, centerOpen: Bool, atRest: Bool, now: Instant) -> Bool {
        boardPeak = max(boardPeak, boardCount)
        centerWasOpen = centerWasOpen || centerOpen
        stackWasBusy = stackWasBusy || boardCount > 0
        let drained = boardPeak - boardCount >= Self.floodShrink
        if floodTail != nil, boardCount != lastCount { floodTail = now + Self.quiet }
        lastCount = boardCount
        let tailIsStill = floodTail.map { now >= $0 } ?? false
        let slidOut = centerWasOpen && !centerOpen
        let emptied = stackWasBusy && boardCount == 0
        guard drained || tailIsStill || (atRest && (slidOut || emptied)) else { return false }
        gaveBack(boardCount: boardCount, centerOpen: centerOpen)
        if drained { floodTail = now + Self.quiet }
        return true
    }

    /// Memory was given back (at a moment, or after a snapshot).
    mutating func gaveBack(boardCount: Int, centerOpen: Bool) {
        boardPeak = boardCount
        centerWasOpen = centerOpen
        stackWasBusy = boardCount > 0
        lastCount = boardCount
        floodTail = nil
    }

    /// A turn had something to do: the instant to arm the idle check for,
    /// when none is armed (the spell's first busy turn), else nil.
    mutating func busy(at now: Instant) -> Instant? {
        lastBusy = now
        guard idleCheck == nil else { return nil }
        idleCheck = now + Self.idle
        return idleCheck
    }

    /// The idle check came due: true when the daemon has been quiet for
    /// `idle` seconds, and the mapped files go back now; false when a turn
    /// came since the check was armed, and `idleCheck` is the instant it is
    /// put off to (nil: nothing to check until the next busy turn).
    mutating func idleCheckCame(at now: Instant) -> Bool {
        guard let lastBusy else {
            idleCheck = nil
            return false
        }
        let quietSince = lastBusy + Self.idle
        guard now >= quietSince else {
            idleCheck = quietSince
            return false
        }
        self.lastBusy = nil
        idleCheck = nil
        return true
    }

    /// The mapped files went back at another moment (the end of start-up):
    /// the spell is over, and the idle check armed for it is let go (the
    /// caller disarms its timer).
    mutating func filesGaveBack() {
        lastBusy = nil
        idleCheck = nil
    }
}
