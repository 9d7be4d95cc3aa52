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
struct HeapMoments {
    static let floodShrink = 256
    static let quiet = 0.25

    /// The most notifications the board held since memory was given back.
    private var boardPeak = 0
    /// The center was open, or the board held notifications, since then.
    private var centerWasOpen = false
    private var stackWasBusy = false
    /// The board's size at the last turn, and when a drained flood's tail
    /// is given back if it stays so (nil: no flood since the last time).
    private var lastCount = 0
    private(set) var floodTail: Instant?

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
}
