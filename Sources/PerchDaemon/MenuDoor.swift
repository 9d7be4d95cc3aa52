import PerchCore
import PerchPlatform

/// Carries out the service's `.menu` effects: the `menu` program offers
/// the actions, and the one chosen is invoked through the service, as
/// `perchctl invoke` would (dunst's context menu, dunstctl `context` and
/// `action`, the `menu` and `do-action` bindings).
final class MenuDoor: MenuOpener {
    private let program: MenuProgram
    /// Invokes the chosen action (`NotificationService.invoke`).
    var onChoice: ((MenuRequest.Entry) -> Void)?

    init(loop: EventLoop) {
        program = MenuProgram(loop: loop)
    }

    func open(_ request: MenuRequest) {
        let name = request.program.first ?? "?"
        do {
            let opened = try program.open(request.program, lines: request.entries.map(\.line)) { [weak self] line in
                guard let line else { return Log.debug("menu \(name): nothing chosen") }
                guard let entry = request.choice(for: line) else {
                    return Log.info("menu \(name): \"\(line.prefix(80))\" is none of the actions offered")
                }
                self?.onChoice?(entry)
            }
            if !opened { Log.warning("menu \(name): a menu is open already; this one is not opened") }
        } catch {
            Log.throttledWarning("menu: \(error)")
        }
    }

    /// Call on SIGCHLD.
    func reap() { program.reap() }
}
