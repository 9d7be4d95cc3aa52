import PerchCore
import PerchDaemon
import PerchPlatform

/// A bad command line, worded for the user.
struct ArgumentError: Error {
    var message: String
}

let usage = """
    usage: perch [-c FILE] [--replace] [--no-dbus] [--state FILE] [-v] [--KEY VALUE]...
           perch --check-config [FILE]
           perch --find-icon NAME [--scale N] [-c FILE]
           perch --find-sound NAME [-c FILE]
           perch --help | --version

    Perch, a notification daemon for Wayland compositors with wlr-layer-shell.
    Runs in the session of $WAYLAND_DISPLAY; serves org.freedesktop.Notifications
    on the session bus and a control socket for perchctl.

      -c, --config FILE      read FILE instead of $XDG_CONFIG_HOME/perch/config
      --check-config [FILE]  report problems in the config and exit (1 on errors)
      --find-icon NAME       look an icon name up as a notification's would be
                             (the config's icon-theme, icon-path and icon-size),
                             print the file and how long the lookup took, exit
      --scale N              with --find-icon: the output scale (default 1)
      --find-sound NAME      look a sound name up in the sound theme as a
                             notification's sound-name would be, print the
                             file and the themes searched, exit (1 when
                             nothing would play)
      --replace              take over from the perch running on this display (it
                             saves its state and exits; nothing is lost), and
                             take org.freedesktop.Notifications from another
                             daemon that allows it
      --no-dbus              serve the control socket only
      --state FILE           where history, modes and live notifications are kept
                             (default $XDG_STATE_HOME/perch/state.json)
      -v, --verbose          more logging
      --KEY VALUE, --KEY=VALUE, --FLAG
                             any config key (see docs/config.md), e.g. --anchor
                             bottom-left, --max-visible 3, --bounce; read after
                             the config file's global keys

    Reload the config with SIGHUP or `perchctl reload`.

    """

/// What the command line asks for.
struct Invocation {
    var configPath: String?
    var checkConfig = false
    var verbose = false
    /// `key=value` lines from `--KEY VALUE` options.
    var overrideLines: [String] = []
    var options = Daemon.Options()
    /// `--find-icon NAME`: look it up and exit.
    var findIcon: String?
    var iconScale = 1
    /// `--find-sound NAME`: look it up and exit.
    var findSound: String?
}

/// Reads the command line. Returns nil for --help and --version (already
/// printed).
func parseArguments(_ arguments: [String]) throws(ArgumentError) -> Invocation? {
    var invocation = Invocation()
    let (lines, rest) = ConfigOverrides.split(arguments)
    invocation.overrideLines = lines
    var remaining = rest[...]
    func value(_ option: String) throws(ArgumentError) -> String {
        guard let value = remaining.popFirst() else { throw ArgumentError(message: "\(option) needs a value") }
        return value
    }
    while let argument = remaining.popFirst() {
        switch argument {
        case "-h", "--help":
            print(usage, terminator: "")
            return nil
        case "--version":
            print("perch \(PerchVersion.string)")
            return nil
        case "--list-config-keys":
            // Not in --help: for the shell completions and the test that
            // the man pages name every key, so both follow the key table.
            for key in Config.knownKeys { print(key) }
            return nil
        case "-v", "--verbose":
            invocation.verbose = true
        case "-c", "--config":
            invocation.configPath = try value(argument)
        case "--check-config":
            invocation.checkConfig = true
            if let next = remaining.first, !next.hasPrefix("-") {
                invocation.configPath = remaining.popFirst()
            }
        case "--find-icon":
            invocation.findIcon = try value(argument)
        case "--find-sound":
            invocation.findSound = try value(argument)
        case "--scale":
            guard let scale = Int(try value(argument)), (1...8).contains(scale) else {
                throw ArgumentError(message: "--scale takes a whole number from 1 to 8")
            }
            invocation.iconScale = scale
        case "--replace":
            invocation.options.replace = true
        case "--no-dbus":
            invocation.options.dbus = false
        case "--state":
            invocation.options.statePath = try value(argument)
        default:
            throw ArgumentError(message: "unknown argument \"\(argument)\" (see perch --help; config keys are --KEY VALUE)")
        }
    }
    return invocation
}
