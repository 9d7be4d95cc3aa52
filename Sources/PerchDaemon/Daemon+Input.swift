import PerchCore
import PerchPlatform

/// What the scene tells the daemon, in one place: input on a toast, the
/// center's controls, and the scene's asks. What a person does becomes one
/// service operation whose effects the executor carries out as the user's
/// own.
extension Daemon {
    /// Every `SceneEvent`, from the scene's one `onEvent`.
    func received(_ event: SceneEvent) {
        let now = MonotonicClock.now()
        switch event {
        case .needsRefresh:
            executor.setNeedsRefresh()
            return
        case .centerCloseRequested:
            executor.execute(service.setCenter(.close, at: now))
        case .center(let action):
            received(action, at: now)
        case .hover, .click, .touch, .key, .replyFieldPressed, .replyEdit, .focusKey, .keyboardLost:
            receivedOnToast(event, at: now)
        }
        executor.setNeedsRefresh()
    }

    /// A click on one of the center's controls: the service's center rules.
    private func received(_ action: CenterAction, at now: Instant) {
        switch action {
        case .toggleDoNotDisturb:
            executor.execute(service.setModes(.toggle(NotificationService.doNotDisturb), at: now))
        case .toggleQuietMenu:
            service.toggleQuietMenu()
            executor.setCenterStale()
        case .chooseQuiet(let choice):
            executor.execute(service.chooseQuiet(choice, utcOffset: WallClock.utcOffset(), at: now))
            executor.setCenterStale()
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
        case .toggleMenu(let id):
            service.toggleCenterMenu(id)
            executor.setCenterStale()
        case .choose(let id, let choice):
            let (result, effects) = service.chooseInCenter(id, choice, at: now)
            if case .failure(let error) = result { Log.info("center: \(error.message)") }
            executor.executeUserInput(effects)
            executor.setCenterStale()
        }
    }

    /// Input on a toast, from the scene's router.
    private func receivedOnToast(_ input: SceneEvent, at now: Instant) {
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
        case .center, .centerCloseRequested, .needsRefresh:
            return  // not on a toast: `received(_:)` takes them
        }
    }
}
