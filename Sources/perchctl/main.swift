import Glibc
import PerchPlatform

// Exit statuses: 0 done, 1 the daemon is absent or refused the request,
// 64 bad command line.

Log.program = "perchctl"
// A daemon that hangs up, or a menu program that quits without reading
// its input, is an EPIPE to report, not a silent death by SIGPIPE.
signal(SIGPIPE, SIG_IGN)

// `.list`, `.history`…: the verbs that are one request (QueryVerbs.swift).
let verbs: [Verb] = [
    PostCommand.verb, DismissCommand.verb, .list, InvokeCommand.verb, MenuCommand.verb, ReplyCommand.verb, .history,
    .restore, WatchCommand.verb, ModeCommand.verb, SnoozeCommand.verb, AppsCommand.verb, CopyCommand.verb, .status,
    .version, .reload, CenterCommand.verb, FocusCommand.verb,
    // dunstctl's spellings.
    CountCommand.verb, HistoryPopCommand.verb, SetPausedCommand.verb, IsPausedCommand.verb, CloseCommand.verb,
    .closeAll, ActionCommand.verb, .context, RuleCommand.verb,
]

func usage(_ verbs: [Verb]) -> String {
    var text = "usage: perchctl COMMAND [OPTIONS]\n\ncommands:\n"
    for verb in verbs {
        text += "  \(verb.synopsis)\n      \(verb.help)\n"
    }
    text += "\nTalks to the perch daemon of $WAYLAND_DISPLAY over $XDG_RUNTIME_DIR/perch/.\n"
    return text
}

func fail(_ message: String, status: Int32) -> Never {
    Log.info(message)
    exit(status)
}

let arguments = CommandLine.arguments.dropFirst()
guard let name = arguments.first else { fail("missing command (see perchctl --help)", status: 64) }
if name == "-h" || name == "--help" || name == "help" {
    print(usage(verbs), terminator: "")
    exit(0)
}
if name == "--list-verbs" {
    // Not in --help: for the shell completions and the test that the man
    // page names every verb, so both follow this table.
    for verb in verbs { print(verb.name) }
    exit(0)
}
guard let verb = verbs.first(where: { $0.name == name }) else {
    fail("unknown command \"\(name)\" (see perchctl --help)", status: 64)
}
if arguments.dropFirst().contains(where: { verb.helpFlags.contains($0) }) {
    print("usage: perchctl \(verb.synopsis)\n\(verb.help)")
    exit(0)
}

let start: Verb.Start
do {
    start = try verb.parse(arguments.dropFirst())
} catch {
    fail(error.message, status: 64)
}
guard let path = Environment.controlSocketPath() else {
    fail("XDG_RUNTIME_DIR is not set: cannot find the perch socket", status: 1)
}
do {
    exit(try start { () throws(ControlClient.Failure) in try ControlClient(path: path) })
} catch let failure as CommandFailure {
    fail(failure.message, status: 1)
} catch let failure as ControlClient.Failure {
    fail(failure.description, status: 1)
} catch {
    fail("\(error)", status: 1)
}
