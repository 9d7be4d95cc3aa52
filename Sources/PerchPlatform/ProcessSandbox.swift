import CPerchSystem
import Glibc
import PerchCore

/// Whether a process runs in a Flatpak sandbox, and as which app: what
/// xdg-desktop-portal asks of a caller before it lets it act as an app,
/// asked here of a D-Bus sender before it may replace or close a
/// notification (`NotificationService.may(_:touch:)`).
///
/// The answer is read from the process's root (`/proc/PID/root`), the way
/// the portal reads it:
/// - the root opens and has no `.flatpak-info`: not a Flatpak (`none`);
/// - it has one naming a valid app id: that app (`flatpak`);
/// - the root cannot be opened because it is on FUSE (a toolbox or
///   distrobox container: FUSE denies processes outside its mount's user
///   namespace; a Flatpak's root is never FUSE): not a Flatpak;
/// - anything else — the process gone, a root Perch may not open, a
///   `.flatpak-info` that is not a regular file, too large, unreadable, or
///   that names no valid app id — cannot be told (`unknown`, with why).
///   The caller decides what that means; it must not mean "ordinary", or a
///   sandboxed app could pass by making its file unreadable or leaving.
///
/// Never blocking: the file is opened with `RegularFile` (O_NONBLOCK, so a
/// FIFO is refused by fstat instead of waiting for a writer; no symbolic
/// link, which would be resolved against Perch's own root, not the
/// sandbox's), at most `FlatpakInfo.maximumBytes` are read.
public enum ProcessSandbox: Equatable, Sendable {
    case none
    case flatpak(appID: String)
    case unknown(reason: String)

    /// The sandbox of process `pid`.
    public static func of(_ pid: pid_t) -> ProcessSandbox {
        guard pid > 0 else { return .unknown(reason: "no process id") }
        return inspect(root: "/proc/\(pid)/root")
    }

    /// The magic number statfs(2) gives for a FUSE file system.
    private static let fuseMagic = 0x6573_5546

    /// The sandbox whose root directory is `root` (a path; `/proc/PID/root`
    /// follows the process's own root).
    static func inspect(root: String) -> ProcessSandbox {
        var raw: Int32
        repeat {
            raw = Glibc.open(root, O_RDONLY | O_NONBLOCK | O_DIRECTORY | O_CLOEXEC | O_NOCTTY)
        } while raw < 0 && errno == EINTR
        if raw < 0 {
            let code = errno
            if code == ENOENT || code == ESRCH { return .unknown(reason: "the process is gone") }
            // statfs on FUSE answers the magic number even to processes it
            // refuses everything else.
            var type = 0
            if code == EACCES, perch_file_system_type(root, &type) == 0, type == fuseMagic { return .none }
            return .unknown(reason: "\(root) cannot be opened (\(String(cString: strerror(code))))")
        }
        let directory = FileDescriptor(adopting: raw)
        let path = "\(root)/.flatpak-info"
        let bytes: [UInt8]?
        do {
            bytes = try RegularFile.read(".flatpak-info", in: directory.rawValue, shownAs: path,
                                         limit: FlatpakInfo.maximumBytes, followingSymlinks: false)
        } catch {
            return .unknown(reason: error.description)
        }
        guard let bytes else { return .none }
        switch FlatpakInfo.appID(in: bytes) {
        case .success(let appID): return .flatpak(appID: appID)
        case .failure(let problem): return .unknown(reason: "\(path) \(problem.message)")
        }
    }
}
