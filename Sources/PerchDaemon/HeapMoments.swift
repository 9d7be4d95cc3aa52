/// The moments a user expects the daemon's memory to fall, at which freed
/// heap memory is given back to the kernel (`Heap.releaseFree`; glibc keeps
/// it otherwise): a flood has drained (the board shrank by `floodShrink`
/// below its peak), the center has slid out, or the stack has gone from
/// busy to empty (the last toast closed, nothing queued or held). The last
/// two wait for the screen to rest, no frame asked for: a trim walks the
/// whole heap, so it must not delay an animation's frame, and it must come
/// after the slide or the fade has freed its images. Not every turn: a
/// notification that comes and goes while others stay gives nothing back.
struct HeapMoments {
    static let floodShrink = 256

    /// The most notifications the board held since memory was given back.
    private var boardPeak = 0
    /// The center was open, or the board held notifications, since then.
    private var centerWasOpen = false
    private var stackWasBusy = false

    /// After a refresh, what the screen shows: whether to give memory back
    /// now (and, if so, counting starts again).
    mutating func isMoment(boardCount: Int, centerOpen: Bool, atRest: Bool) -> Bool {
        boardPeak = max(boardPeak, boardCount)
        centerWasOpen = centerWasOpen || centerOpen
        stackWasBusy = stackWasBusy || boardCount > 0
        let drained = boardPeak - boardCount >= Self.floodShrink
        let slidOut = centerWasOpen && !centerOpen
        let emptied = stackWasBusy && boardCount == 0
        guard drained || (atRest && (slidOut || emptied)) else { return false }
        gaveBack(boardCount: boardCount, centerOpen: centerOpen)
        return true
    }

    /// Memory was given back (at a moment, or after a snapshot).
    mutating func gaveBack(boardCount: Int, centerOpen: Bool) {
        boardPeak = boardCount
        centerWasOpen = centerOpen
        stackWasBusy = boardCount > 0
    }
}
