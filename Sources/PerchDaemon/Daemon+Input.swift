import PerchCore
import PerchPlatform

/// What a person does on screen, from the scene to the service: input on
/// a toast, and the center's controls. Each becomes one service operation
/// whose effects the executor carries out as the user's own.
extension Daemon {
    /// A click on one of the center's controls: the service's center rules.
    func received(_ action: CenterAction) {
        let now = MonotonicClock.now()
        switch action {
        case .toggleDoNotDisturb:
            executor.execute(service.setModes(.toggle(NotificationService.doNotDisturb), at: now))
        case .clearAll:
            executor.execute(service.clearCenter(at: now))
        case .clearGroup(let app):
            executor.execute(service.clearCenterGroup(app, at: now))
        case .fold(let app, let folded):
            service.setFolded(app, folded)
            executor.setCenterStale()
        case .dismiss(let id):
            executor.execute(service.dismissCenterEntry(id, at: now).effects)
        case .invoke(let id, let action):
            executor.executeUserInput(service.invokeCenterEntry(id, action: action, at: now).effects)
        case .focusReply(let id):
            executor.execute(service.handle(.replyFieldPressed, on: id, at: now))
            // A suspended toast has no surface to update: the entry shows it.
            executor.setCenterStale()
        case .replyEdit(let id, let edit):
            executor.execute(service.handle(.replyEdit(edit), on: id, at: now))
            executor.setCenterStale()
        }
        executor.setNeedsRefresh()
    }

    /// Input on a toast, from the scene's router.
    func received(_ input: SceneInput) {
        let now = MonotonicClock.now()
        switch input {
        case .hover(let id, let hovered):
            executor.executeUserInput(service.handle(.hover(hovered), on: id, at: now))
        case .click(let id, let button, let action):
            executor.executeUserInput(service.handle(.click(button: button, action: action), on: id, at: now))
        case .touch(let id, let touch):
            let mapped: TouchInput = switch touch {
            case .down: .down
            case .pull(let offset): .pull(offset)
            case .release(let outcome, let action): .release(outcome, action: action)
            case .cancel: .cancel
            }
            executor.executeUserInput(service.handle(.touch(mapped), on: id, at: now))
        case .key(let id, let key, let focused):
            let mapped: ToastKey
            switch key {
            case .escape: mapped = .escape
            case .enter: mapped = .enter
            case .space: mapped = .space
            case .tab, .backTab: return  // the focus ring is the scene's
            case .text, .backspace, .delete, .left, .right, .up, .down, .home, .end: return  // a field's or the center's
            }
            executor.executeUserInput(service.handle(.key(mapped, focusedButton: focused), on: id, at: now))
        case .replyFieldPressed(let id):
            executor.executeUserInput(service.handle(.replyFieldPressed, on: id, at: now))
        case .replyEdit(let id, let edit):
            executor.executeUserInput(service.handle(.replyEdit(edit), on: id, at: now))
        case .focusKey(let key, let focused):
            executor.executeUserInput(service.handle(key, focusedButton: focused, at: now))
        case .keyboardLost:
            executor.execute(service.releaseKeyboard(at: now))
        }
        executor.setNeedsRefresh()
    }
}
