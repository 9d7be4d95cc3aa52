import Glibc
import PerchCore
import PerchDaemon
import PerchPlatform

// Exit statuses: 0 stopped by a signal (or --check-config found no error),
// 1 the compositor went away (or --check-config found errors),
// 2 cannot start (no Wayland session, no layer-shell, socket in use, a
// broken config…), 3 another daemon owns org.freedesktop.Notifications,
// 64 bad command line.

let invocation: Invocation
do {
    guard let parsed = try parseArguments(Array(CommandLine.arguments.dropFirst())) else { exit(0) }
    invocation = parsed
} catch {
    Log.error(error.message)
    exit(64)
}
Log.verbose = invocation.verbose
// A program the daemon writes to through a pipe (the menu program) may
// quit without reading it all: that is EPIPE to handle, not a death.
signal(SIGPIPE, SIG_IGN)

let source = ConfigSource(path: invocation.configPath, overrideLines: invocation.overrideLines)
if invocation.checkConfig {
    let (config, diagnostics) = source.load()
    // Which file, and read how, when it is not Perch's own.
    if source.kind != .perch { print(source.summary) }
    for diagnostic in diagnostics { print(diagnostic) }
    if config != nil { print("\(source.path ?? "config"): OK") }
    exit(config == nil ? 1 : 0)
}

if let name = invocation.findIcon {
    let (config, diagnostics) = source.load()
    for diagnostic in diagnostics { print(diagnostic) }
    guard let config else { exit(1) }
    exit(findIcon(name, global: config.global, scale: invocation.iconScale) ? 0 : 1)
}

if let name = invocation.findSound {
    let (config, diagnostics) = source.load()
    for diagnostic in diagnostics { print(diagnostic) }
    guard let config else { exit(1) }
    exit(findSound(name, global: config.global) ? 0 : 1)
}

let daemon: Daemon
do {
    daemon = try Daemon(options: invocation.options, configSource: source)
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
