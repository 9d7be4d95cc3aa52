import PerchCore
import PerchPlatform
import PerchWayland

/// The center's input adapter: takes the pointer, touch and key events
/// that are the panel's (or its catcher's), turns them into calls on the
/// core's `CenterPanelState` (hit tests, scrolling, the keyboard's ring),
/// and forwards the `CenterAction`s they return. What it keeps is only
/// what the seat says between events: where the pointer is and on which
/// surface, the finger that scrolls, whether the panel has the keyboard.
final class CenterInput {
    private unowned let view: CenterView

    /// `.centerCloseRequested` when the panel asks to be closed (Escape, a
    /// press outside it); `.center` when one of its controls was pressed,
    /// or a key asked for something.
    var onEvent: ((SceneEvent) -> Void)?

    private var pointerOver = false
    /// The pointer is on the catcher, outside the panel.
    private var pointerOutside = false
    /// Where the pointer is on the panel, surface pixels.
    private var pointer = (x: 0.0, y: 0.0)
    /// The finger scrolling the list, if one is.
    private var finger: Int32?
    /// Whether the panel has the keyboard (a press on it gives it).
    private var keyboardFocused = false

    /// wl_pointer.axis reports a wheel notch as 15 surface pixels (wlroots,
    /// libinput); the panel scrolls `CenterScroll.notch` for it. With
    /// wl_pointer v8 a wheel comes as axis_value120 instead (`.wheel`).
    static let pixelsPerNotch = 15.0

    init(view: CenterView) {
        self.view = view
    }

    /// Takes the pointer events that are the panel's; false for the rest.
    func handles(_ event: PointerEvent, at now: Instant) -> Bool {
        switch event {
        case .enter(let surface, let x, let y):
            pointerOver = view.isPanel(surface)
            pointerOutside = view.isCatcher(surface)
            if pointerOver { pointer = (x, y) }
            return pointerOver || pointerOutside
        case .leave(let surface):
            if view.isCatcher(surface) {
                pointerOutside = false
                return true
            }
            guard view.isPanel(surface) else { return false }
            pointerOver = false
            return true
        case .scroll(let pixels):
            guard pointerOver else { return false }
            let notches = pixels / Self.pixelsPerNotch
            view.update { $0.scroll.scroll(by: notches * CenterScroll.notch, animated: true, at: now) }
            return true
        case .wheel(let value120):
            guard pointerOver else { return false }
            view.update { $0.scroll.scroll(value120: Int(value120), at: now) }
            return true
        case .motion(let x, let y):
            pointer = (x, y)
            return pointerOver
        case .button(let button, let pressed):
            if pointerOutside {
                if pressed { onEvent?(.centerCloseRequested) }
                return true
            }
            guard pointerOver else { return false }
            if pressed { view.takeKeyboardWithoutOnDemand() }
            if pressed, button == Bindings.leftButton,
               let action = view.state.action(clickAtX: pointer.x, y: pointer.y, center: view.center,
                                              topBar: view.topBarGeometry(), choices: view.choiceRowGeometry(),
                                              at: now) {
                onEvent?(.center(action))
            } else if pressed, button == Bindings.rightButton,
                      let action = view.state.action(menuClickAtX: pointer.x, y: pointer.y, center: view.center,
                                                     topBar: view.topBarGeometry(),
                                                     choicesOpen: view.choiceRowGeometry() != nil, at: now) {
                onEvent?(.center(action))
            }
            return true
        }
    }

    /// Takes the touch events that are the panel's: a finger drags the
    /// list (with the rubber band past its ends) and flings it on release.
    func handles(_ event: TouchEvent, at now: Instant) -> Bool {
        switch event {
        case .down(let surface, let id, let x, let y, _):
            if view.isCatcher(surface) {
                onEvent?(.centerCloseRequested)
                return true
            }
            guard view.isPanel(surface), finger == nil else { return view.isPanel(surface) }
            view.takeKeyboardWithoutOnDemand()
            if let action = view.state.action(touchAtX: x, y: y, center: view.center, topBar: view.topBarGeometry(),
                                              at: now) {
                onEvent?(.center(action))
            }
            finger = id
            view.update { $0.scroll.touchDown(y: y, at: now) }
        case .motion(let id, _, let y, _):
            guard id == finger else { return false }
            view.update { $0.scroll.touchMove(y: y, at: now) }
        case .up(let id, _):
            guard id == finger else { return false }
            finger = nil
            view.update { $0.scroll.touchUp(at: now) }
        case .cancel:
            guard finger != nil else { return false }
            finger = nil
            view.update { $0.scroll.touchCancel(at: now) }
        }
        return true
    }

    /// Takes the keyboard events that are the panel's.
    func handles(_ event: KeyEvent) -> Bool {
        switch event {
        case .focus(let surface):
            keyboardFocused = view.isPanel(surface)
            return keyboardFocused
        case .focusLost:
            defer { keyboardFocused = false }
            return keyboardFocused
        case .press(let key):
            guard keyboardFocused else { return false }
            let now = MonotonicClock.now()
            let centerKey: CenterKey? = switch key {
            case .escape: .escape
            case .up: .up
            case .down: .down
            case .delete, .backspace: .delete
            case .enter: .enter
            case .text("m"): .menu
            case .text("c"): .copy(.text)
            case .text("o"): .copy(.code)
            default: nil
            }
            let edit = InputRouter.replyEdit(for: key)
            switch view.update({ $0.key(centerKey, replyEdit: edit, at: now) }) {
            case .nothing, .ringMoved: break
            case .close: onEvent?(.centerCloseRequested)
            case .act(let action): onEvent?(.center(action))
            }
            return true
        }
    }
}
