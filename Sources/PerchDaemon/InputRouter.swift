import PerchCore
import PerchWayland

/// Turns the seat's pointer, touch and keyboard events on toasts into
/// `SceneEvent`s for the owner. What the seat is doing (hover, fingers,
/// which toast keys go to, the ring and its grab) is the core's
/// `ToastSeat`, whose rules are tested there; the router resolves surfaces
/// to toasts and stages and carries out on them what the seat answers.
/// Which button is under the pointer and which has the Tab focus ring are
/// presentation: the router changes the view's highlight, marks it stale
/// and asks for a refresh, and reports only what the owner acts on.
final class InputRouter {
    private let views: SceneViews
    private let stages: StageSet<WaylandConnection>
    /// Surface pixels: how far a swipe must go is a share of a toast's width.
    var toastWidth: Int

    /// What the owner acts on, and `.needsRefresh` when a highlight changed.
    var onEvent: ((SceneEvent) -> Void)?
    /// The cursor to show: a hand over a button, the arrow elsewhere on a toast.
    var onCursor: ((CursorShape) -> Void)?

    /// Hover, fingers, the keyboard's toast, the ring and its grab.
    private var seat = ToastSeat<StageKey>()
    /// While the ring holds the keyboard: the surface that catches a click
    /// elsewhere (`StageSet.makeCatcher`).
    private var catcher: StageSurface?
    /// The surface of the last press (click, tap) on a toast, by id: what
    /// an activation token names as the surface the user acted on.
    private var pressed: (id: UInt32, surface: SurfaceHandle)?

    init(views: SceneViews, stages: StageSet<WaylandConnection>, toastWidth: Int) {
        self.views = views
        self.stages = stages
        self.toastWidth = toastWidth
    }

    /// The toast is gone: nothing more is reported for it, and if it had
    /// the keyboard, the user's window gets it back.
    func forget(_ view: ToastView) {
        if pressed?.id == view.id { pressed = nil }
        guard seat.forget(view.id) else { return }
        if seat.ringed == view.id { releaseRing() }
        if let key = seat.keyboardPlace { stages[key]?.releaseKeyboardFocus() }
    }

    // MARK: The keyboard from `perchctl focus`

    /// The toasts have the keyboard with the ring on `id`: its stage takes
    /// the keyboard exclusively — the one mode in which a layer surface is
    /// given focus without a click, with v3 and v4 alike — until released.
    /// Stepping down to on_demand once focused, so that a click on a window
    /// would take the keyboard back, does not hold: sway 1.10 hands the
    /// keyboard back to the window at that commit.
    func focusRing(on id: UInt32) {
        guard let view = views[id] else { return }
        // With output=all, the copy on the first output.
        let first = view.copies.keys.min(by: { ($0.output ?? 0) < ($1.output ?? 0) })
        let key = first.flatMap { stages[$0] == nil ? nil : $0 }
        let change = seat.ring(id, on: key)
        if let old = change.unringed { setHighlight(of: old) { $0.focused = nil } }
        guard change.takes, let key, let stage = stages[key] else { return }
        if let replaced = change.replaced, let old = stages[replaced] {
            old.releaseKeyboardFocus()
            old.commit()
        }
        stage.takeKeyboard()
        stage.commit()
        catcher = stages.makeCatcher(over: key)
        catcher?.onClosed = { [unowned self] in self.catcher = nil }
    }

    /// A leave means the user went to another window (a click there) — or
    /// that the seat's last keyboard went: wlroots clears the focus before
    /// it drops the keyboard capability, in the same burst, and enters the
    /// same surface again when a keyboard comes back (a virtual keyboard,
    /// wtype's, comes and goes with each run). Only the first lets go.
    func settleKeyboardLeave(seatHasKeyboard: Bool) {
        if seat.settleKeyboardLeave(seatHasKeyboard: seatHasKeyboard) { onEvent?(.keyboardLost) }
    }

    /// A ring put on a toast before it had a surface (focused in the turn
    /// it was posted) takes the keyboard once it has one.
    func grabForRing() {
        if let ringed = seat.ringAwaitsPlace { focusRing(on: ringed) }
    }

    /// The keyboard goes back to the window that had it: the stage sets
    /// its interactivity to none, and the compositor refocuses.
    func releaseRing() {
        let released = seat.releaseRing()
        if let old = released.unringed { setHighlight(of: old) { $0.focused = nil } }
        catcher = nil
        if let key = released.released, let stage = stages[key] {
            stage.releaseKeyboardFocus()
            stage.commit()
        }
    }

    /// What a key does while the toasts have the keyboard (no reply field
    /// has it): Tab still rings the toast's buttons.
    private func ringKey(_ key: Key, on view: ToastView) {
        let focusKey: FocusKey? = switch key {
        case .up: .up
        case .down: .down
        case .enter: .enter
        case .delete: .delete
        case .escape: .escape
        case .text(let text): FocusKey(text: text)
        case .tab, .backTab, .space, .backspace, .left, .right, .home, .end: nil
        }
        if key == .tab || key == .backTab { return moveFocusRing(on: view, forward: key == .tab) }
        guard let focusKey else { return }
        onEvent?(.focusKey(focusKey, focusedButton: focusKey == .enter ? view.highlight.focused : nil))
    }

    /// The surface the user last pressed on toast `id`, while it exists.
    func lastPressed(_ id: UInt32) -> ToastSurface? {
        guard let pressed, pressed.id == id, let stage = views.stage(of: pressed.surface) else { return nil }
        return views[id]?.copies[stage]?.surface
    }

    /// The toast's surface on `stage` went with the stage. A leave or
    /// touch event for a destroyed surface no longer names it, so the
    /// pointer and fingers on it are let go here (a new enter comes if the
    /// pointer is over the toast's new surface).
    func copyLost(_ id: UInt32, on stage: StageKey) {
        let lost = seat.copyLost(id, on: stage)
        if lost.unhovered {
            if let view = views[id] { view.highlight.hovered = nil }
            onEvent?(.hover(id: id, false))
        }
        if lost.untouched { onEvent?(.touch(id: id, .cancel)) }
    }

    // MARK: Pointer

    func pointer(_ event: PointerEvent) {
        switch event {
        case .enter(let surface, let x, let y):
            seat.pointerOnCatcher = surface == catcher?.handle
            if seat.pointerOnCatcher { return }
            seat.pointerEntered(views.id(of: surface), on: views.stage(of: surface), x: x, y: y)
            guard let id = seat.hovered, let view = views[id], let key = seat.hoveredPlace else { return }
            // Keys (Tab, Return, Escape) go to the toast with buttons under
            // the pointer. With layer-shell v4 the compositor gives the
            // keyboard on a click (on_demand); v3 has no such mode, so
            // there the stage takes it while the pointer rests on the toast
            // and gives it back when the pointer leaves.
            let stage = stages[key]
            if let grab = seat.grab, grab.place == key {
                // The ring holds this stage's keyboard: leave it be.
            } else if view.hasActions {
                if stage?.focusesOnDemand ?? true { stage?.allowKeyboardFocus() } else { stage?.takeKeyboard() }
                seat.keyboardTarget = id
                seat.keyboardPlace = key
            } else {
                stage?.allowKeyboardFocus()
            }
            onEvent?(.hover(id: id, true))
            updateHoveredButton()
        case .leave(let surface):
            if seat.pointerOnCatcher, surface == catcher?.handle {
                seat.pointerOnCatcher = false
                return
            }
            guard let (left, place) = seat.pointerLeft() else { return }
            if seat.ringed == nil, let view = views[left], view.hasActions, view.content.reply?.isFocused != true,
               let key = place, let stage = stages[key], !stage.focusesOnDemand {
                stage.releaseKeyboardFocus()
            }
            setHighlight(of: left) { $0.hovered = nil }
            onEvent?(.hover(id: left, false))
        case .scroll, .wheel:
            return  // toasts do not scroll (the center does: `CenterInput`)
        case .motion(let x, let y):
            seat.pointerMoved(x: x, y: y)
            updateHoveredButton()
        case .button(let button, let pressed):
            // A click elsewhere while the toasts hold the keyboard gives it back.
            if seat.pointerOnCatcher {
                if pressed { onEvent?(.keyboardLost) }
                return
            }
            guard pressed, let id = seat.hovered, let view = views[id] else { return }
            _ = seat.pointerPressed()
            if let key = seat.hoveredPlace, let surface = view.copies[key]?.surface { self.pressed = (id, surface.handle) }
            let (x, y) = (seat.pointerX, seat.pointerY)
            if button == Bindings.leftButton, view.geometry?.isInReplyField(x: x, y: y) == true {
                return pressReplyField(of: view)
            }
            onEvent?(.click(id: id, button: button, action: view.geometry?.button(at: x, y: y)?.id))
        }
    }

    private func updateHoveredButton() {
        guard let id = seat.hovered, let view = views[id] else { return }
        let button = view.geometry?.button(at: seat.pointerX, y: seat.pointerY)?.id
        onCursor?(button == nil ? .arrow : .hand)
        setHighlight(of: id) { $0.hovered = button }
    }

    /// Changes a toast's button highlight; if that changed, it is drawn
    /// again with the next present.
    private func setHighlight(of id: UInt32, _ change: (inout ButtonHighlight) -> Void) {
        guard let view = views[id] else { return }
        var highlight = view.highlight
        change(&highlight)
        guard highlight != view.highlight else { return }
        view.highlight = highlight
        view.markStale()
        onEvent?(.needsRefresh)
    }

    // MARK: Keyboard

    func key(_ event: KeyEvent) {
        switch event {
        case .focus(let surface):
            let key = stages.key(of: surface)
            if seat.keyboardEntered(key) { return }
            // Focus lands on the stage; keys go to the toast last touched in it.
            if seat.keyboardTarget == nil, let key {
                seat.keyboardTarget = views.any(in: key.lane)?.id
                seat.keyboardPlace = key
            }
        case .focusLost:
            if let id = seat.keyboardTarget { setHighlight(of: id) { $0.focused = nil } }
            // The compositor gave the keyboard to another window (a click
            // there): the toasts let go of it.
            seat.keyboardLeft()
        case .press(let key):
            if let id = seat.ringed, let view = views[id], view.content.reply?.isFocused != true {
                return ringKey(key, on: view)
            }
            guard let id = seat.keyboardTarget, let view = views[id] else { return }
            if view.content.reply?.isFocused == true {
                if let edit = Self.replyEdit(for: key) { onEvent?(.replyEdit(id: id, edit)) }
                return
            }
            switch key {
            case .tab, .backTab:
                moveFocusRing(on: view, forward: key == .tab)
            default:
                onEvent?(.key(id: id, key, focusedButton: view.highlight.focused))
            }
        }
    }

    /// The reply field was pressed: it is to get the keyboard. With
    /// layer-shell v4 the press itself makes the compositor give it
    /// (on_demand); v3 has only exclusive, taken until the field lets go
    /// (the toast goes, or the pointer leaves with the field done).
    private func pressReplyField(of view: ToastView) {
        seat.keyboardTarget = view.id
        if let key = seat.keyboardPlace, let stage = stages[key] {
            if stage.focusesOnDemand { stage.allowKeyboardFocus() } else { stage.takeKeyboard() }
        }
        onEvent?(.replyFieldPressed(id: view.id))
    }

    /// What a key does in a reply field that has the keyboard.
    static func replyEdit(for key: Key) -> ReplyEdit? {
        switch key {
        case .text(let text): .insert(text)
        case .space: .insert(" ")
        case .enter: .send
        case .escape: .cancel
        case .backspace(let word): .backspace(word: word)
        case .delete: .delete
        case .left: .left
        case .right: .right
        case .home: .home
        case .end: .end
        case .tab, .backTab, .up, .down: nil
        }
    }

    /// Tab and Shift+Tab walk the toast's buttons round.
    private func moveFocusRing(on view: ToastView, forward: Bool) {
        let buttons = view.geometry?.buttons.map(\.id) ?? []
        guard let next = ToastSeat<StageKey>.nextButton(buttons, after: view.highlight.focused, forward: forward)
        else { return }
        setHighlight(of: view.id) { $0.focused = next }
    }

    // MARK: Touch

    func touch(_ event: TouchEvent) {
        // Gestures run on the events' own clock (milliseconds).
        func instant(_ time: UInt32) -> Instant { Instant(nanoseconds: Int64(time) * 1_000_000) }
        switch event {
        case .down(let surface, let finger, let x, let y, let time):
            if surface == catcher?.handle {
                onEvent?(.keyboardLost)
                return
            }
            guard let id = views.id(of: surface), let key = views.stage(of: surface),
                  let toastSurface = views[id]?.copies[key]?.surface else { return }
            // Gestures work in stage coordinates. The toast moves while it
            // follows the finger, but its input holds still under it: the
            // finger's coordinates are relative to that place, on
            // compositors that report them against where the surface was at
            // the touch-down (sway, labwc) and where it is now (Weston) alike.
            let origin = toastSurface.holdInput()
            seat.touchDown(finger, on: id, place: key, originX: origin.x, originY: origin.y, x: x, y: y,
                           at: instant(time), width: Double(toastWidth))
            pressed = (id, surface)
            stages[key]?.allowKeyboardFocus()
            onEvent?(.touch(id: id, .down))
        case .motion(let finger, let x, let y, let time):
            if let pull = seat.touchMoved(finger, x: x, y: y, at: instant(time)) {
                onEvent?(.touch(id: pull.id, .pull(pull.offset)))
            }
        case .up(let finger, let time):
            guard let up = seat.touchUp(finger, at: instant(time)) else { return }
            let entry = up.finger
            // Once no other finger is on the same copy, its input goes
            // back under the card.
            if up.wasLast { releaseInput(of: entry) }
            if up.outcome == .tap, let view = views[entry.id],
               view.geometry?.isInReplyField(x: entry.localX, y: entry.localY) == true {
                onEvent?(.touch(id: entry.id, .cancel))   // the finger's hold on the timer ends
                return pressReplyField(of: view)
            }
            let action = up.outcome == .tap
                ? views[entry.id]?.geometry?.button(at: entry.localX, y: entry.localY)?.id : nil
            onEvent?(.touch(id: entry.id, .release(up.outcome, action: action)))
        case .cancel:
            let fingers = seat.touchCancelled()
            for finger in fingers { releaseInput(of: finger) }
            for id in Set(fingers.map(\.id)) { onEvent?(.touch(id: id, .cancel)) }
        }
    }

    /// The toast's input goes back under the card on the copy a finger was on.
    private func releaseInput(of finger: ToastSeat<StageKey>.Finger) {
        views[finger.id]?.copies[finger.place]?.surface.releaseInput()
    }
}
