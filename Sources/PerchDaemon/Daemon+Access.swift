import PerchAccess
import PerchCore
import PerchPlatform

/// Where the executor hands the accessibility tree over at the end of a
/// turn (`AccessibilityBridge`, faked in tests).
protocol AccessDoor: AnyObject {
    /// Whether a tree is wanted at all: false while accessibility is off,
    /// so that none is built.
    var isActive: Bool { get }
    func publish(_ tree: AccessTree)
}

extension AccessibilityBridge: AccessDoor {}

/// The accessibility tree for screen readers: the bridge is made after
/// the session bus (it reads the session's switch there and asks it for
/// the accessibility bus), the executor hands it the service's model as a
/// tree at the end of each turn that changed it, and a screen reader's
/// press comes back as the service's own operations, as the user's input.
extension Daemon {
    func startAccess() {
        let bridge = AccessibilityBridge(loop: loop, session: bus?.bus.connection,
                                         policy: service.global.accessibility)
        bridge.onNeedsTree = { [unowned self] in self.executor.setAccessStale() }
        bridge.onCommand = { [unowned self] command in self.received(command) }
        access = bridge
        executor.access = bridge
    }

    func received(_ command: AccessCommand) {
        let now = MonotonicClock.now()
        switch command {
        case .invoke(let id, let action):
            executor.executeUserInput(service.invoke(id, action: action, at: now).effects)
        case .invokeCenterEntry(let id, let action):
            executor.executeUserInput(service.invokeCenterEntry(id, action: action, at: now).effects)
        case .setDoNotDisturb(let on):
            let change: ModeChange = on ? .add(NotificationService.doNotDisturb) : .remove(NotificationService.doNotDisturb)
            executor.executeUserInput(service.setModes(change, at: now))
        }
    }
}
