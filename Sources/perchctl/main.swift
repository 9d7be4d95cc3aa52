import Glibc
import PerchPlatform

// Exit statuses: 0 done, 1 the daemon is absent or refused the request,
// 64 bad command line.

Log.program = "perchctl"
// A daemon that hangs up, or a menu program that quits without reading
// its input, is an EPIPE to report, not a silent death by SIGPIPE.
signal(SIGPIPE, SIG_IGN)

let commands: [any Command.Type] = [
    PostCommand.self, DismissCommand.self, ListCommand.self, InvokeCommand.self, MenuCommand.self, ReplyCommand.self,
    HistoryCommand.self,
    RestoreCommand.self, WatchCommand.self, ModeCommand.self, StatusCommand.self, VersionCommand.self,
    ReloadCommand.self, CenterCommand.self, FocusCommand.self,
    // dunstctl's spellings.
    CountCommand.self, HistoryPopCommand.self, SetPausedCommand.self, IsPausedCommand.self, CloseCommand.self,
    CloseAllCommand.self, ActionCommand.self, ContextCommand.self, RuleCommand.self,
]

func usage(_ commands: [any Command.Type]) -> String {
    var text = "usage: perchctl COMMAND [OPTIONS]\n\ncommands:\n"
    for command in commands {
        text += "  \(command.synopsis)\n      \(command.help)\n"
    }
    text += "\nTalks to the perch daemon of $WAYLAND_DISPLAY over $XDG_RUNTIME_DIR/perch/.\n"
    return text
}

func fail(_ message: String, status: Int32) -> Never {
    Log.info(message)
    exit(status)
}

let arguments = CommandLine.arguments.dropFirst()
guard let verb = arguments.first else { fail("missing command (see perchctl --help)", status: 64) }
if verb == "-h" || verb == "--help" || verb == "help" {
    print(usage(commands), terminator: "")
    exit(0)
}
if verb == "--list-verbs" {
    // Not in --help: for the shell completions and the test that the man
    // page names every verb, so both follow this table.
    for command in commands { print(command.name) }
    exit(0)
}
guard let type = commands.first(where: { $0.name == verb }) else {
    fail("unknown command \"\(verb)\" (see perchctl --help)", status: 64)
}
if arguments.dropFirst().contains(where: { type.helpFlags.contains($0) }) {
    print("usage: perchctl \(type.synopsis)\n\(type.help)")
    exit(0)
}

let command: any Command
do {
    command = try type.init(parsing: arguments.dropFirst())
} catch {
    fail(error.message, status: 64)
}
guard let path = Environment.controlSocketPath() else {
    fail("XDG_RUNTIME_DIR is not set: cannot find the perch socket", status: 1)
}
do {
    exit(try command.start { () throws(ControlClient.Failure) in try ControlClient(path: path) })
} catch let failure as CommandFailure {
    fail(failure.message, status: 1)
} catch let failure as ControlClient.Failure {
    fail(failure.description, status: 1)
} catch {
    fail("\(error)", status: 1)
}
