import PerchCore
import PerchPlatform

/// Icons that outlive their files (`KeptIcon`), in the scene's memory
/// (`KeptIcons`, through the scene's text context) and on disk
/// (`KeptIconDirectory` beside the state file, once the state is known to
/// be kept): the executor's one edge to both.
final class KeptIconKeeping: KeptIconKeeper {
    private unowned let scene: Scene
    /// nil: the state is not kept on disk this run, nor are icons.
    private(set) var directory: KeptIconDirectory?

    init(scene: Scene) {
        self.scene = scene
    }

    /// Copies go to `directory` from now on, and are read back from it.
    func use(_ directory: KeptIconDirectory) {
        self.directory = directory
        scene.keptIconShelf = directory
    }

    func keep(_ content: ToastContent, iconSize: Int) {
        scene.keepIcon(of: content, iconSize: iconSize)
    }

    func forget(where isGone: (UInt32) -> Bool) {
        // Most turns of a daemon that never met an icon file: nothing to
        // ask about (and no code of the stores' to run).
        guard scene.keptIconsHeld > 0 || (directory?.held.count ?? 0) > 0 else { return }
        scene.forgetKeptIcons(where: isGone)
        directory?.retain(where: isGone)
    }
}
