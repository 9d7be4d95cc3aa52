import PerchCore
import PerchWayland

/// Turns the seat's pointer, touch and keyboard events on toasts into
/// `SceneEvent`s for the owner. Which button is under the pointer and which
/// has the Tab focus ring are presentation: the router changes the view's
/// highlight, marks it stale and asks for a refresh, and reports only what
/// the owner acts on.
final class InputRouter {
    private let views: SceneViews
    private let stages: StageSet
    /// Surface pixels: how far a swipe must go is a share of a toast's width.
    var toastWidth: Int

    /// What the owner acts on, and `.needsRefresh` when a highlight changed.
    var onEvent: ((SceneEvent) -> Void)?
    /// The cursor to show: a hand over a button, the arrow elsewhere on a toast.
    var onCursor: ((CursorShape) -> Void)?

    /// The notification under the pointer, the stage of the copy it is
    /// over, and where (card-local).
    private var hovered: UInt32?
    private var hoveredStage: StageKey?
    private var pointerX = 0.0
    private var pointerY = 0.0
    /// Fingers down, by touch id.
    private var touches: [Int32: Finger] = [:]
    /// The notification keyboard keys go to: the last one clicked or tapped,
    /// or the one with buttons under the pointer.
    private var keyboardTarget: UInt32?
    /// The stage that has (or may get) the keyboard for it.
    private var keyboardStage: StageKey?
    /// The toast with the ring while `perchctl focus` has given the toasts
    /// the keyboard (the service's `keyboardFocus`); nil otherwise.
    private var ringed: UInt32?
    /// The stage holding the keyboard for the ring, and whether the
    /// compositor's enter for it is still to come (a leave meanwhile is
    /// the stage handing over, not the user going elsewhere).
    private var grab: (stage: StageKey, awaitingEnter: Bool)?
    /// The ring's stage lost the keyboard in this turn's events; what that
    /// means is settled once they are all in (`settleKeyboardLeave`).
    private var leftThisTurn = false
    /// While the ring holds the keyboard: the surface that catches a click
    /// elsewhere (`StageSet.makeCatcher`), and whether the pointer is on it.
    private var catcher: StageSurface?
    private var pointerOnCatcher = false
    /// The surface of the last press (click, tap) on a toast, by id: what
    /// an activation token names as the surface the user acted on.
    private var pressed: (id: UInt32, surface: SurfaceHandle)?

    private struct Finger {
        var id: UInt32
        /// The copy the finger is on.
        var stage: StageKey
        /// Where the toast's input is held while the finger is on it
        /// (stage-local surface pixels): its coordinates are relative to it.
        var origin: (x: Int, y: Int)
        var gesture: TouchGesture
        /// Where the finger is on the toast, card-local surface pixels.
        var localX: Double
        var localY: Double
    }

    init(views: SceneViews, stages: StageSet, toastWidth: Int) {
        self.views = views
        self.stages = stages
        self.toastWidth = toastWidth
    }

    /// The toast is gone: nothing more is reported for it, and if it had
    /// the keyboard, the user's window gets it back.
    func forget(_ view: ToastView) {
        if hovered == view.id { hovered = nil }
        if !touches.isEmpty { touches = touches.filter { $0.value.id != view.id } }
        if pressed?.id == view.id { pressed = nil }
        if keyboardTarget == view.id {
            keyboardTarget = nil
            if ringed == view.id { releaseRing() }
            if let keyboardStage { stages[keyboardStage]?.releaseKeyboardFocus() }
        }
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
        if let old = ringed, old != id { setHighlight(of: old) { $0.focused = nil } }
        ringed = id
        keyboardTarget = id
        // With output=all, the copy on the first output.
        guard let key = view.copies.keys.min(by: { ($0.output ?? 0) < ($1.output ?? 0) }),
              let stage = stages[key] else { return }
        keyboardStage = key
        if let grab, grab.stage == key { return }
        if let grab, let old = stages[grab.stage] {
            old.releaseKeyboardFocus()
            old.commit()
        }
        grab = (key, true)
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
        guard leftThisTurn else { return }
        leftThisTurn = false
        guard let grab else { return }
        if seatHasKeyboard {
            onEvent?(.keyboardLost)
        } else {
            self.grab = (grab.stage, true)
        }
    }

    /// A ring put on a toast before it had a surface (focused in the turn
    /// it was posted) takes the keyboard once it has one.
    func grabForRing() {
        if let ringed, grab == nil { focusRing(on: ringed) }
    }

    /// The keyboard goes back to the window that had it: the stage sets
    /// its interactivity to none, and the compositor refocuses.
    func releaseRing() {
        if let old = ringed { setHighlight(of: old) { $0.focused = nil } }
        ringed = nil
        leftThisTurn = false
        catcher = nil
        pointerOnCatcher = false
        guard let grab else { return }
        self.grab = nil
        if let stage = stages[grab.stage] {
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
        if hovered == id, hoveredStage == stage {
            hovered = nil
            if let view = views[id] { view.highlight.hovered = nil }
            onEvent?(.hover(id: id, false))
        }
        let fingers = touches.filter { $0.value.id == id && $0.value.stage == stage }
        guard !fingers.isEmpty else { return }
        for finger in fingers.keys { touches.removeValue(forKey: finger) }
        onEvent?(.touch(id: id, .cancel))
    }

    // MARK: Pointer

    func pointer(_ event: PointerEvent) {
        switch event {
        case .enter(let surface, let x, let y):
            pointerOnCatcher = surface == catcher?.handle
            if pointerOnCatcher { return }
            hovered = views.id(of: surface)
            hoveredStage = views.stage(of: surface)
            pointerX = x
            pointerY = y
            guard let id = hovered, let view = views[id], let key = hoveredStage else { return }
            // Keys (Tab, Return, Escape) go to the toast with buttons under
            // the pointer. With layer-shell v4 the compositor gives the
            // keyboard on a click (on_demand); v3 has no such mode, so
            // there the stage takes it while the pointer rests on the toast
            // and gives it back when the pointer leaves.
            let stage = stages[key]
            if let grab, grab.stage == key {
                // The ring holds this stage's keyboard: leave it be.
            } else if view.hasActions {
                if stage?.focusesOnDemand ?? true { stage?.allowKeyboardFocus() } else { stage?.takeKeyboard() }
                keyboardTarget = id
                keyboardStage = key
            } else {
                stage?.allowKeyboardFocus()
            }
            onEvent?(.hover(id: id, true))
            updateHoveredButton()
        case .leave(let surface):
            if pointerOnCatcher, surface == catcher?.handle {
                pointerOnCatcher = false
                return
            }
            guard let left = hovered else { return }
            hovered = nil
            if ringed == nil, let view = views[left], view.hasActions, view.content.reply?.isFocused != true,
               let key = hoveredStage, let stage = stages[key], !stage.focusesOnDemand {
                stage.releaseKeyboardFocus()
            }
            hoveredStage = nil
            setHighlight(of: left) { $0.hovered = nil }
            onEvent?(.hover(id: left, false))
        case .scroll, .wheel:
            return  // toasts do not scroll (the center does: `CenterInput`)
        case .motion(let x, let y):
            pointerX = x
            pointerY = y
            updateHoveredButton()
        case .button(let button, let pressed):
            // A click elsewhere while the toasts hold the keyboard gives it back.
            if pointerOnCatcher {
                if pressed { onEvent?(.keyboardLost) }
                return
            }
            guard pressed, let id = hovered, let view = views[id] else { return }
            keyboardTarget = id
            keyboardStage = hoveredStage
            if let key = hoveredStage, let surface = view.copies[key]?.surface { self.pressed = (id, surface.handle) }
            if button == Bindings.leftButton, view.geometry?.isInReplyField(x: pointerX, y: pointerY) == true {
                return pressReplyField(of: view)
            }
            onEvent?(.click(id: id, button: button, action: view.geometry?.button(at: pointerX, y: pointerY)?.id))
        }
    }

    private func updateHoveredButton() {
        guard let id = hovered, let view = views[id] else { return }
        let button = view.geometry?.button(at: pointerX, y: pointerY)?.id
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
            if let grab, grab.awaitingEnter, let stage = stages[grab.stage], stage.handle == surface {
                self.grab = (grab.stage, false)
                return
            }
            // Focus lands on the stage; keys go to the toast last touched in it.
            if keyboardTarget == nil, let key = stages.key(of: surface) {
                keyboardTarget = views.any(in: key.lane)?.id
                keyboardStage = key
            }
        case .focusLost:
            if let id = keyboardTarget { setHighlight(of: id) { $0.focused = nil } }
            // The compositor gave the keyboard to another window (a click
            // there): the toasts let go of it.
            if let grab, !grab.awaitingEnter { leftThisTurn = true }
        case .press(let key):
            if let id = ringed, let view = views[id], view.content.reply?.isFocused != true {
                return ringKey(key, on: view)
            }
            guard let id = keyboardTarget, let view = views[id] else { return }
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
        keyboardTarget = view.id
        if let key = keyboardStage, let stage = stages[key] {
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
        guard !buttons.isEmpty else { return }
        let current = view.highlight.focused.flatMap { buttons.firstIndex(of: $0) }
        let next = current.map { ($0 + (forward ? 1 : buttons.count - 1)) % buttons.count }
            ?? (forward ? 0 : buttons.count - 1)
        setHighlight(of: view.id) { $0.focused = buttons[next] }
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
            let gesture = TouchGesture(x: x + Double(origin.x), y: y + Double(origin.y), at: instant(time),
                                       width: Double(toastWidth))
            touches[finger] = Finger(id: id, stage: key, origin: origin, gesture: gesture, localX: x, localY: y)
            keyboardTarget = id
            keyboardStage = key
            pressed = (id, surface)
            stages[key]?.allowKeyboardFocus()
            onEvent?(.touch(id: id, .down))
        case .motion(let finger, let x, let y, let time):
            guard var entry = touches[finger] else { return }
            let wasSwiping = entry.gesture.isSwiping
            entry.gesture.move(x: x + Double(entry.origin.x), y: y + Double(entry.origin.y), at: instant(time))
            entry.localX = x
            entry.localY = y
            touches[finger] = entry
            if entry.gesture.isSwiping || wasSwiping { onEvent?(.touch(id: entry.id, .pull(entry.gesture.offset))) }
        case .up(let finger, let time):
            guard let entry = touches.removeValue(forKey: finger) else { return }
            releaseInputIfUntouched(entry)
            let outcome = entry.gesture.release(at: instant(time))
            if outcome == .tap, let view = views[entry.id],
               view.geometry?.isInReplyField(x: entry.localX, y: entry.localY) == true {
                onEvent?(.touch(id: entry.id, .cancel))   // the finger's hold on the timer ends
                return pressReplyField(of: view)
            }
            let action = outcome == .tap
                ? views[entry.id]?.geometry?.button(at: entry.localX, y: entry.localY)?.id : nil
            onEvent?(.touch(id: entry.id, .release(outcome, action: action)))
        case .cancel:
            let fingers = Array(touches.values)
            touches.removeAll()
            for finger in fingers { releaseInputIfUntouched(finger) }
            for id in Set(fingers.map(\.id)) { onEvent?(.touch(id: id, .cancel)) }
        }
    }

    /// A finger left the toast: once no other is on the same copy, its
    /// input goes back under the card.
    private func releaseInputIfUntouched(_ finger: Finger) {
        guard !touches.values.contains(where: { $0.id == finger.id && $0.stage == finger.stage }) else { return }
        views[finger.id]?.copies[finger.stage]?.surface.releaseInput()
    }
}
