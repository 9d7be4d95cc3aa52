// The command language of perch-test-pointer, parsed without touching
// Wayland so that a typo fails before anything reaches the compositor.

/// A pointer button, by its Linux input event code (linux/input-event-codes.h).
struct Button: Equatable, CustomStringConvertible {
    let code: UInt32

    static let left = Button(code: 0x110)    // BTN_LEFT
    static let right = Button(code: 0x111)   // BTN_RIGHT
    static let middle = Button(code: 0x112)  // BTN_MIDDLE

    /// `left`, `right`, `middle`, or a code in decimal or 0x-hex (e.g. 0x113
    /// for BTN_SIDE).
    init?(_ word: String) {
        switch word {
        case "left": self = .left
        case "right": self = .right
        case "middle": self = .middle
        default:
            let code = word.hasPrefix("0x") ? UInt32(word.dropFirst(2), radix: 16) : UInt32(word)
            guard let code else { return nil }
            self.code = code
        }
    }

    init(code: UInt32) { self.code = code }

    var description: String {
        switch self {
        case .left: "left"
        case .right: "right"
        case .middle: "middle"
        default: "0x" + String(code, radix: 16)
        }
    }
}

/// One step of a script.
enum Step: Equatable {
    /// Absolute motion to (x, y) in output-layout pixels, then a frame.
    case move(x: UInt32, y: UInt32)
    /// Press then release, each followed by a frame.
    case click(Button)
    case press(Button)
    case release(Button)
    /// Wait, after making sure everything sent so far was handled.
    case sleep(seconds: Double)
    /// Turn the wheel by this many notches (positive: down), one frame each.
    case wheel(notches: Int)
}

struct UsageError: Error, CustomStringConvertible {
    let description: String
}

/// Parses `move X Y`, `click B`, `press B`, `release B`, `wheel N` and `sleep S` steps
/// from a flat list of words (command-line arguments or one stdin line).
func parseSteps(_ words: [String]) throws(UsageError) -> [Step] {
    var steps: [Step] = []
    var rest = words[...]

    func operand(of command: String, _ what: String) throws(UsageError) -> String {
        guard let word = rest.popFirst() else {
            throw UsageError(description: "`\(command)` needs \(what)")
        }
        return word
    }
    func coordinate(of command: String, _ axis: String) throws(UsageError) -> UInt32 {
        let word = try operand(of: command, "\(axis) (a pixel position)")
        // Absolute motion is unsigned on the wire: positions are offsets
        // from the layout's top-left corner.
        guard let value = UInt32(word) else {
            throw UsageError(description: "`\(command)`: \(axis) must be a non-negative integer, got \"\(word)\"")
        }
        return value
    }
    func button(of command: String) throws(UsageError) -> Button {
        let word = try operand(of: command, "a button (left, right, middle or a code)")
        guard let button = Button(word) else {
            throw UsageError(description: "`\(command)`: unknown button \"\(word)\" (left, right, middle, or a Linux code like 0x110)")
        }
        return button
    }

    while let command = rest.popFirst() {
        switch command {
        case "move":
            let x = try coordinate(of: command, "X")
            let y = try coordinate(of: command, "Y")
            steps.append(.move(x: x, y: y))
        case "click": steps.append(.click(try button(of: command)))
        case "press": steps.append(.press(try button(of: command)))
        case "release": steps.append(.release(try button(of: command)))
        case "wheel":
            let word = try operand(of: command, "a number of notches")
            guard let notches = Int(word), notches != 0, abs(notches) <= 100 else {
                throw UsageError(description: "`wheel`: notches must be a non-zero integer up to 100, got \"\(word)\"")
            }
            steps.append(.wheel(notches: notches))
        case "sleep":
            let word = try operand(of: command, "a duration in seconds")
            guard let seconds = Double(word), seconds >= 0, seconds.isFinite else {
                throw UsageError(description: "`sleep`: duration must be a non-negative number of seconds, got \"\(word)\"")
            }
            steps.append(.sleep(seconds: seconds))
        default:
            throw UsageError(description: "unknown command \"\(command)\" (move, click, press, release, wheel, sleep)")
        }
    }
    return steps
}

/// What the command line asks for.
struct Invocation {
    /// Size of the absolute-motion grid; nil means "the output layout's size".
    var extent: (width: UInt32, height: UInt32)?
    /// Read further steps from stdin, one line at a time, after `steps`.
    var readStdin = false
    var verbose = false
    var help = false
    var steps: [Step] = []
}

func parseInvocation(_ arguments: [String]) throws(UsageError) -> Invocation {
    var invocation = Invocation()
    var rest = arguments[...]
    // Options come first; the first word that is not one starts the script.
    while let word = rest.first, word.hasPrefix("-") {
        rest.removeFirst()
        switch word {
        case "-h", "--help":
            invocation.help = true
        case "-v", "--verbose":
            invocation.verbose = true
        case "--stdin":
            invocation.readStdin = true
        case "--extent":
            guard let w = rest.popFirst().flatMap({ UInt32($0) }), w > 0,
                  let h = rest.popFirst().flatMap({ UInt32($0) }), h > 0 else {
                throw UsageError(description: "`--extent` needs a positive width and height, e.g. --extent 1280 720")
            }
            invocation.extent = (w, h)
        case "--":
            invocation.steps = try parseSteps(Array(rest))
            return invocation
        default:
            throw UsageError(description: "unknown option \(word)")
        }
    }
    invocation.steps = try parseSteps(Array(rest))
    if invocation.steps.isEmpty && !invocation.readStdin && !invocation.help {
        throw UsageError(description: "no commands given")
    }
    return invocation
}

let usage = """
    usage: perch-test-pointer [--extent W H] [--stdin] [-v] COMMAND...

    Drives a virtual pointer (zwlr_virtual_pointer_v1) on $WAYLAND_DISPLAY.
    Commands run in order:
      move X Y         absolute motion to (X, Y) in output-layout pixels
      click BUTTON     press and release (left, right, middle, or a code)
      press BUTTON     press only
      release BUTTON   release only
      wheel N          turn the wheel N notches (negative: up), one frame each
      sleep SECONDS    wait (after the compositor has handled what came before)

    Options:
      --extent W H     size of the layout in pixels (default: computed from
                       the outputs, 1280x720 if there are none)
      --stdin          after the arguments, read commands from stdin, one line
                       at a time; prints "ok" (or "error: ...") per line once the
                       compositor has handled it. The pointer lives until EOF.
      -v, --verbose    log each step to stderr

    The virtual pointer is removed when the program exits, and sway then
    clears the seat's pointer focus: keep it running (sleep, --stdin) for as
    long as something must stay hovered.
    Exit status: 0 done, 1 Wayland failure, 2 usage error.
    """
