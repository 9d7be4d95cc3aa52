import PerchCore
import PerchDaemon

/// A bad command line, worded for the user.
struct ArgumentError: Error {
    var message: String
}

let usage = """
    usage: perch [OPTIONS]
           perch --help | --version

    Perch, a notification daemon for Wayland compositors with wlr-layer-shell.
    Runs in the session of $WAYLAND_DISPLAY; post notifications with perchctl.

    options (defaults for every notification; a post may override them):
      --anchor top-right|top-left|top-center|bottom-right|bottom-left|bottom-center
      --margin PX            distance from the output edges (default 10)
      --gap PX               space between toasts (default 10)
      --max-visible N        toasts on screen at once; more wait (default 5)
      --order newest-first|oldest-first
      --enter STYLE          slide-right|slide-left|slide-top|slide-bottom|fade
      --exit STYLE           (default: slide to/from the nearest edge)
      --bounce               overshoot and settle at the end of a slide in
      --style toast|banner
      --enter-duration S     (default 0.7)
      --exit-duration S      (default 0.7)
      --reflow-duration S    (default 0.3)
      --default-timeout S    display time of normal urgency (default 5)
      --ignore-timeout       use the defaults even when a sender gives a timeout
      --on-button-left B     what a click does: none, dismiss, dismiss-all,
      --on-button-middle B     invoke-default-action, "invoke-action ID"
      --on-button-right B      (defaults: left and middle invoke-default-action,
      --on-touch B             right dismiss-all, touch invoke-default-action)
      --on-appear CMD        run CMD (words split like a shell line, but no shell) when a
      --on-dismiss CMD         notification appears / is dismissed / has an action invoked;
      --on-action CMD          fields in PERCH_ID, PERCH_APP, PERCH_TITLE, PERCH_BODY,
                               PERCH_URGENCY, PERCH_REASON, PERCH_ACTION
      --hook-timeout S       kill a hook still running after S seconds (default 5)
      --max-history N        dismissed notifications kept for history/restore (default 50)
      --state FILE           where history, modes and live notifications are kept
                             (default $XDG_STATE_HOME/perch/state.json)
      --replace              take org.freedesktop.Notifications from another daemon (if it allows)
      --no-dbus              serve the control socket only
      -v, --verbose

    """

/// Reads the command line into daemon options. Returns nil for --help and
/// --version (already printed).
func parseArguments(_ arguments: ArraySlice<String>) throws(ArgumentError) -> (Daemon.Options, verbose: Bool)? {
    var options = Daemon.Options()
    var verbose = false
    var rest = arguments
    func value(_ option: String) throws(ArgumentError) -> String {
        guard let value = rest.popFirst() else { throw ArgumentError(message: "\(option) needs a value") }
        return value
    }
    func number(_ option: String, _ range: ClosedRange<Double>) throws(ArgumentError) -> Double {
        let text = try value(option)
        guard let number = Double(text), range.contains(number) else {
            throw ArgumentError(message: "\(option) takes a number from \(range.lowerBound) to \(range.upperBound), not \"\(text)\"")
        }
        return number
    }
    func transition(_ option: String) throws(ArgumentError) -> Transition {
        let text = try value(option)
        guard let transition = Transition(name: text) else {
            throw ArgumentError(message: "\(option) takes one of \(Transition.names.joined(separator: ", ")), not \"\(text)\"")
        }
        return transition
    }
    while let argument = rest.popFirst() {
        switch argument {
        case "-h", "--help":
            print(usage, terminator: "")
            return nil
        case "--version":
            print("perch \(PerchVersion.string)")
            return nil
        case "-v", "--verbose":
            verbose = true
        case "--anchor":
            let text = try value(argument)
            guard let anchor = Anchor(rawValue: text) else {
                throw ArgumentError(message: "--anchor takes one of \(Anchor.allCases.map(\.rawValue).joined(separator: ", ")), not \"\(text)\"")
            }
            options.stack.anchor = anchor
        case "--margin":
            options.stack.margins = Margins(all: Int(try number(argument, 0...10_000)))
        case "--gap":
            options.stack.gap = Int(try number(argument, 0...10_000))
        case "--max-visible":
            options.stack.maxVisible = Int(try number(argument, 1...1_000))
        case "--order":
            let text = try value(argument)
            guard let order = StackOrder(rawValue: text) else {
                throw ArgumentError(message: "--order takes newest-first or oldest-first, not \"\(text)\"")
            }
            options.stack.order = order
        case "--enter":
            options.enter = try transition(argument)
        case "--exit":
            options.exit = try transition(argument)
        case "--bounce":
            options.bounce = true
        case "--style":
            let text = try value(argument)
            guard let kind = NotificationKind(rawValue: text) else {
                throw ArgumentError(message: "--style takes toast or banner, not \"\(text)\"")
            }
            options.kind = kind
        case "--enter-duration":
            options.stack.timing.enterDuration = try number(argument, 0.01...60)
        case "--exit-duration":
            options.stack.timing.exitDuration = try number(argument, 0.01...60)
        case "--reflow-duration":
            options.stack.timing.reflowDuration = try number(argument, 0...60)
        case "--default-timeout":
            options.stack.timing.normalTimeout = try number(argument, 0...86_400)
        case "--on-appear", "--on-dismiss", "--on-action":
            let text = try value(argument)
            let words: [String]
            do {
                words = try CommandWords.split(text)
            } catch {
                throw ArgumentError(message: "\(argument): \(error.message)")
            }
            switch argument {
            case "--on-appear": options.onAppear = words
            case "--on-dismiss": options.onDismiss = words
            default: options.onAction = words
            }
        case "--hook-timeout":
            options.hookTimeout = try number(argument, 0.1...3600)
        case "--max-history":
            options.maxHistory = Int(try number(argument, 0...100_000))
        case "--state":
            options.statePath = try value(argument)
        case "--replace":
            options.replaceBusOwner = true
        case "--no-dbus":
            options.dbus = false
        case "--ignore-timeout":
            options.stack.timing.ignoreSenderTimeout = true
        case "--on-button-left", "--on-button-middle", "--on-button-right", "--on-touch":
            let text = try value(argument)
            guard let binding = Binding(parsing: text) else {
                throw ArgumentError(message: "\(argument) takes none, dismiss, dismiss-all, invoke-default-action or \"invoke-action ID\", not \"\(text)\"")
            }
            switch argument {
            case "--on-button-left": options.bindings.left = binding
            case "--on-button-middle": options.bindings.middle = binding
            case "--on-button-right": options.bindings.right = binding
            default: options.bindings.touch = binding
            }
        default:
            throw ArgumentError(message: "unknown argument \"\(argument)\" (see perch --help)")
        }
    }
    return (options, verbose)
}
