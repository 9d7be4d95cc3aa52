import Glibc
import PerchCore
import PerchDaemon
import PerchPlatform

// Exit statuses: 0 stopped by a signal, 1 the compositor went away,
// 2 cannot start (no Wayland session, no layer-shell, socket in use…),
// 64 bad command line.

let usage = """
    usage: perch [--verbose]
           perch --help | --version

    Perch, a notification daemon for Wayland compositors with wlr-layer-shell.
    Runs in the session of $WAYLAND_DISPLAY; post notifications with perchctl.

    """

var options = Daemon.Options()
for argument in CommandLine.arguments.dropFirst() {
    switch argument {
    case "-h", "--help":
        print(usage, terminator: "")
        exit(0)
    case "--version":
        print("perch \(PerchVersion.string)")
        exit(0)
    case "-v", "--verbose":
        Log.verbose = true
    default:
        Log.error("unknown argument \"\(argument)\" (see perch --help)")
        exit(64)
    }
}

let daemon: Daemon
do {
    daemon = try Daemon(options: options)
} catch {
    Log.error(error.message)
    exit(2)
}

switch daemon.run() {
case .stopped:
    exit(0)
case .compositorLost(let reason):
    Log.error(reason)
    exit(1)
}
