/// The seat on the toasts: the pointer over one, the fingers on them, the
/// toast keys go to, and the ring `perchctl focus` puts on one with the
/// keyboard its stage holds for it. Pure, as the center's
/// `CenterPanelState` is: the daemon's `InputRouter` turns Wayland's events
/// into these calls and carries out what they answer on the surfaces
/// (taking or letting go of the keyboard, holding a toast's input still
/// under a finger), which only it can touch. `Place` names one copy of a
/// toast: the stage it is on (the daemon's `StageKey`).
public struct ToastSeat<Place: Hashable & Sendable>: Sendable {
    /// A finger on a toast.
    public struct Finger: Equatable, Sendable {
        public var id: UInt32
        /// The copy the finger is on.
        public var place: Place
        /// Where the toast's input is held while the finger is on it
        /// (stage-local surface pixels): the finger's coordinates are
        /// relative to it.
        public var originX: Int
        public var originY: Int
        public var gesture: TouchGesture
        /// Where the finger is on the toast, card-local surface pixels.
        public var localX: Double
        public var localY: Double
    }

    /// The ring's stage holding the keyboard, and whether the
    /// compositor's enter for it is still to come (a leave meanwhile is the
    /// stage handing over, not the user going elsewhere).
    public struct Grab: Equatable, Sendable {
        public var place: Place
        public var awaitingEnter: Bool
    }

    /// The toast under the pointer and the copy it is over.
    public private(set) var hovered: UInt32?
    public private(set) var hoveredPlace: Place?
    /// Where the pointer is on that toast, card-local surface pixels.
    public private(set) var pointerX = 0.0
    public private(set) var pointerY = 0.0
    /// Fingers down, by touch id.
    public private(set) var fingers: [Int32: Finger] = [:]
    /// The toast keys go to: the last one clicked or tapped, or the one
    /// with buttons under the pointer; and the copy that has (or may get)
    /// the keyboard for it.
    public var keyboardTarget: UInt32?
    public var keyboardPlace: Place?
    /// The toast with the ring while the toasts have the keyboard from
    /// `perchctl focus`; nil otherwise.
    public private(set) var ringed: UInt32?
    public private(set) var grab: Grab?
    /// The ring's stage lost the keyboard in this turn's events; what that
    /// means is settled once they are all in (`settleKeyboardLeave`).
    private var leftThisTurn = false
    /// While the ring holds the keyboard, the pointer is on the surface
    /// that catches a click elsewhere.
    public var pointerOnCatcher = false

    public init() {}

    // MARK: Toasts going

    /// The toast is gone: nothing more is reported for it. True when it
    /// was the one keys went to (the user's window is to get the keyboard
    /// back; with the ring on it, the ring goes too: `releaseRing`).
    public mutating func forget(_ id: UInt32) -> Bool {
        if hovered == id { hovered = nil }
        if !fingers.isEmpty { fingers = fingers.filter { $0.value.id != id } }
        guard keyboardTarget == id else { return false }
        keyboardTarget = nil
        return true
    }

    /// A toast's copy went with its stage: the pointer and the fingers on
    /// it are let go (their leave and touch events no longer name it).
    /// Says whether the pointer was on it and whether any finger was.
    public mutating func copyLost(_ id: UInt32, on place: Place) -> (unhovered: Bool, untouched: Bool) {
        var unhovered = false
        if hovered == id, hoveredPlace == place {
            hovered = nil
            unhovered = true
        }
        let lost = fingers.filter { $0.value.id == id && $0.value.place == place }.keys
        for finger in lost { fingers.removeValue(forKey: finger) }
        return (unhovered, !lost.isEmpty)
    }

    // MARK: Pointer

    /// The pointer entered a toast's copy (nil: a surface that is none).
    public mutating func pointerEntered(_ id: UInt32?, on place: Place?, x: Double, y: Double) {
        hovered = id
        hoveredPlace = place
        pointerX = x
        pointerY = y
    }

    public mutating func pointerMoved(x: Double, y: Double) {
        pointerX = x
        pointerY = y
    }

    /// The pointer left: the toast it was over, and the copy, if any.
    public mutating func pointerLeft() -> (id: UInt32, place: Place?)? {
        guard let left = hovered else { return nil }
        let place = hoveredPlace
        hovered = nil
        hoveredPlace = nil
        return (left, place)
    }

    /// A press on the toast under the pointer makes it the one keys go to.
    /// The toast, if the pointer is on one.
    public mutating func pointerPressed() -> UInt32? {
        guard let id = hovered else { return nil }
        keyboardTarget = id
        keyboardPlace = hoveredPlace
        return id
    }

    // MARK: Touch

    /// A finger came down on a toast's copy, at (x, y) on the card, with
    /// the toast's input held at `origin` on the stage; `width` is the
    /// toast's, for how far a swipe must go.
    public mutating func touchDown(_ finger: Int32, on id: UInt32, place: Place, originX: Int, originY: Int,
                                   x: Double, y: Double, at now: Instant, width: Double) {
        let gesture = TouchGesture(x: x + Double(originX), y: y + Double(originY), at: now, width: width)
        fingers[finger] = Finger(id: id, place: place, originX: originX, originY: originY, gesture: gesture,
                                 localX: x, localY: y)
        keyboardTarget = id
        keyboardPlace = place
    }

    /// A finger moved: the toast it pulls and by how much, when the
    /// gesture is (or just stopped being) a swipe; nil otherwise.
    public mutating func touchMoved(_ finger: Int32, x: Double, y: Double, at now: Instant)
        -> (id: UInt32, offset: Double)? {
        guard var entry = fingers[finger] else { return nil }
        let wasSwiping = entry.gesture.isSwiping
        entry.gesture.move(x: x + Double(entry.originX), y: y + Double(entry.originY), at: now)
        entry.localX = x
        entry.localY = y
        fingers[finger] = entry
        return entry.gesture.isSwiping || wasSwiping ? (entry.id, entry.gesture.offset) : nil
    }

    /// A finger lifted: what it was on, the gesture's outcome, and whether
    /// it was the last on that copy (its input then goes back under the
    /// card).
    public mutating func touchUp(_ finger: Int32, at now: Instant)
        -> (finger: Finger, outcome: TouchGesture.Outcome, wasLast: Bool)? {
        guard let entry = fingers.removeValue(forKey: finger) else { return nil }
        let outcome = entry.gesture.release(at: now)
        return (entry, outcome, !isTouched(entry.id, on: entry.place))
    }

    /// The compositor took the touch away: every finger goes.
    public mutating func touchCancelled() -> [Finger] {
        defer { fingers.removeAll() }
        return Array(fingers.values)
    }

    /// Whether a finger is still on this copy of the toast.
    public func isTouched(_ id: UInt32, on place: Place) -> Bool {
        fingers.values.contains { $0.id == id && $0.place == place }
    }

    // MARK: The ring and the keyboard it holds

    /// The ring goes to `id`, whose copy at `place` (nil: none yet) is to
    /// hold the keyboard. The toast that had the ring before, if another,
    /// to lose its highlight; and whether `place` must take the keyboard
    /// (false: it holds it already, or there is no place yet), with the
    /// grab it replaces, whose stage lets go.
    public mutating func ring(_ id: UInt32, on place: Place?)
        -> (unringed: UInt32?, takes: Bool, replaced: Place?) {
        let unringed = ringed.flatMap { $0 != id ? $0 : nil }
        ringed = id
        keyboardTarget = id
        guard let place else { return (unringed, false, nil) }
        keyboardPlace = place
        if let grab, grab.place == place { return (unringed, false, nil) }
        let replaced = grab?.place
        grab = Grab(place: place, awaitingEnter: true)
        return (unringed, true, replaced)
    }

    /// The ring lets the keyboard go: the toast that had it, to lose its
    /// highlight, and the stage that held the keyboard, to give it back.
    public mutating func releaseRing() -> (unringed: UInt32?, released: Place?) {
        let unringed = ringed
        ringed = nil
        leftThisTurn = false
        pointerOnCatcher = false
        let released = grab?.place
        grab = nil
        return (unringed, released)
    }

    /// A ring put on a toast before it had a copy (focused in the turn it
    /// was posted) is to take the keyboard now.
    public var ringAwaitsPlace: UInt32? { grab == nil ? ringed : nil }

    /// The keyboard entered a surface; true when it was the grab's awaited
    /// enter (nothing else to do).
    public mutating func keyboardEntered(_ place: Place?) -> Bool {
        guard let grab, grab.awaitingEnter, let place, grab.place == place else { return false }
        self.grab = Grab(place: place, awaitingEnter: false)
        return true
    }

    /// The keyboard left the toasts. Under a grab that has had its enter,
    /// that is either the user going to another window or the seat's last
    /// keyboard going: `settleKeyboardLeave` tells them apart.
    public mutating func keyboardLeft() {
        if let grab, !grab.awaitingEnter { leftThisTurn = true }
    }

    /// Once a turn's events are in: true when the ring lost the keyboard
    /// to another window (the toasts let go of it). wlroots clears the
    /// focus before it drops the seat's keyboard capability, in the same
    /// burst, and enters the same surface again when a keyboard comes back
    /// (wtype's virtual keyboard comes and goes with each run): without a
    /// keyboard, the grab waits for that enter instead.
    public mutating func settleKeyboardLeave(seatHasKeyboard: Bool) -> Bool {
        guard leftThisTurn else { return false }
        leftThisTurn = false
        guard let grab else { return false }
        if seatHasKeyboard { return true }
        self.grab = Grab(place: grab.place, awaitingEnter: true)
        return false
    }

    // MARK: Buttons

    /// Tab (forward) or Shift+Tab from `current` among a toast's buttons,
    /// round; nil when it has none.
    public static func nextButton(_ buttons: [String], after current: String?, forward: Bool) -> String? {
        guard !buttons.isEmpty else { return nil }
        let index = current.flatMap { buttons.firstIndex(of: $0) }
        let next = index.map { ($0 + (forward ? 1 : buttons.count - 1)) % buttons.count }
            ?? (forward ? 0 : buttons.count - 1)
        return buttons[next]
    }
}
