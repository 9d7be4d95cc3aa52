import Glibc
import PerchCore
import PerchDaemon
import PerchPlatform

// Exit statuses: 0 stopped by a signal, 1 the compositor went away,
// 2 cannot start (no Wayland session, no layer-shell, socket in use…),
// 3 another daemon owns org.freedesktop.Notifications,
// 64 bad command line.

let parsed: (Daemon.Options, verbose: Bool)?
do {
    parsed = try parseArguments(CommandLine.arguments.dropFirst())
} catch {
    Log.error(error.message)
    exit(64)
}
guard let (options, verbose) = parsed else { exit(0) }
Log.verbose = verbose

let daemon: Daemon
do {
    daemon = try Daemon(options: options)
} catch {
    Log.error(error.message)
    exit(error.exitStatus)
}

switch daemon.run() {
case .stopped:
    exit(0)
case .compositorLost(let reason):
    Log.error(reason)
    exit(1)
}
