import Glibc
import PerchBus
import PerchCore
import PerchPlatform

/// dunst's control interface (`org.dunstproject.cmd0`, what dunstctl
/// calls): a third door into the same service operations as the control
/// socket and org.freedesktop.Notifications.
extension Daemon {
    /// Serves org.dunstproject.cmd0 on the Notifications server's object.
    func openDunstDoor(on notifications: NotificationsBus, door: BusDoor) {
        do {
            let dunst = try DunstBus(on: notifications, handlers: dunstHandlers)
            door.dunst = dunst
            dunst.publishChanges()
        } catch {
            Log.warning("D-Bus: \(error); dunstctl will not work")
        }
    }

    private var dunstHandlers: DunstBus.Handlers {
        .init(
            contextMenu: { [unowned self] in
                executor.execute(service.openMenu(at: MonotonicClock.now()).effects)
            },
            action: { [unowned self] position in
                let (result, effects) = service.doAction(atScreenPosition: Int(position), at: MonotonicClock.now())
                executor.execute(effects)
                // dunst's words, which scripts may look for.
                if case .failure = result {
                    return .failure(.invalidArgs("Couldn't activate action for notification in position \(position), "
                                                 + "\(service.counts.displayed) notifications currently open"))
                }
                return .success(())
            },
            clearHistory: { [unowned self] in
                let (count, effects) = service.clearHistory()
                executor.execute(effects)
                return UInt32(clamping: count)
            },
            closeLast: { [unowned self] in
                // Nothing on screen: nothing to do, no error (as dunst).
                executor.execute(service.closeFirst(at: MonotonicClock.now()).effects)
            },
            closeAll: { [unowned self] in
                executor.execute(service.dismiss(.all, reason: .dismissedByUser, at: MonotonicClock.now()).effects)
            },
            history: { [unowned self] in
                service.history.entries.reversed().map { DunstListing.history($0, text: service.formattedText(of:)) }
            },
            popHistory: { [unowned self] id in
                executor.execute(service.restore(id: id, for: nil, at: MonotonicClock.now()).effects)
            },
            removeFromHistory: { [unowned self] id in
                let (forgotten, effects) = service.forgetHistoryEntry(id)
                executor.execute(effects)
                return forgotten
            },
            ruleEnable: { [unowned self] name, state in
                let on: Bool?
                switch state {
                case 0: on = false
                case 1: on = true
                case 2: on = nil
                default: return .failure(.invalidArgs("Couldn't understand state \(state). It must be 0, 1 or 2"))
                }
                switch service.switchRule(name, on: on) {
                case .success: return .success(())
                case .failure: return .failure(.invalidArgs("There is no rule named \"\(name)\""))
                }
            },
            rules: { [unowned self] in
                service.config.sections.filter { !DunstListing.isSpecial($0.name) }.map {
                    DunstListing.rule($0, enabled: service.isRuleEnabled($0))
                }
            },
            reload: { [unowned self] configs in
                // dunstctl reload FILE…: those files from now on, as dunst
                // keeps them; the ones in use stay if they cannot be read.
                let previous = configSource
                if !configs.isEmpty {
                    configSource = ConfigSource(dunstrcs: configs, overrideLines: configSource.overrideLines)
                }
                switch reload() {
                case .success: return .success(())
                case .failure(let error):
                    configSource = previous
                    return .failure(.failed(error.message))
                }
            },
            state: { [unowned self] in
                let counts = service.counts
                let paused = service.isDoNotDisturb
                return DunstBus.State(paused: paused, pauseLevel: paused ? dunstPauseLevel : 0,
                                      displayed: UInt32(clamping: counts.displayed),
                                      history: UInt32(clamping: counts.history),
                                      waiting: UInt32(clamping: counts.waiting))
            },
            setPauseLevel: { [unowned self] level in
                if level > 0 { dunstPauseLevel = level }
                let change: ModeChange = level > 0 ? .add(NotificationService.doNotDisturb)
                    : .remove(NotificationService.doNotDisturb)
                executor.execute(service.setModes(change, at: MonotonicClock.now()))
            })
    }
}
