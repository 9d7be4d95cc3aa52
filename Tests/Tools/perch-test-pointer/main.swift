// perch-test-pointer: moves and clicks a virtual pointer so end-to-end
// tests can hover and click toasts on a headless sway.
//
//   perch-test-pointer move 1100 40 sleep 0.5 click left move 10 700
//
// Exit status: 0 done, 1 Wayland failure, 2 usage error.
import Glibc

/// Writes a line straight to a file descriptor: unbuffered, so a test
/// reading the "ok" replies of --stdin sees each one at once (and Swift 6
/// rejects touching C's `stdout`/`stderr` globals).
func writeLine(_ text: String, to fd: Int32) {
    var line = text + "\n"
    line.withUTF8 { bytes in
        var offset = 0
        while offset < bytes.count {
            let n = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return }
            offset += n
        }
    }
}

func log(_ message: String) {
    writeLine("perch-test-pointer: \(message)", to: STDERR_FILENO)
}

/// Runs the steps on `pointer`, sizing absolute motion by `extent`.
func perform(_ steps: [Step], pointer: VirtualPointer, connection: Connection,
             extent: (width: UInt32, height: UInt32), origin: (x: Int32, y: Int32),
             verbose: Bool) throws(ToolError) {
    for step in steps {
        if verbose { log("\(step)") }
        switch step {
        case .move(let x, let y):
            // Layout coordinates to offsets on the grid (the layout may start
            // left of or above 0).
            let gx = UInt32(clamping: Int64(x) - Int64(origin.x))
            let gy = UInt32(clamping: Int64(y) - Int64(origin.y))
            pointer.move(x: gx, y: gy, width: extent.width, height: extent.height)
        case .click(let button):
            pointer.button(button, pressed: true)
            pointer.button(button, pressed: false)
        case .press(let button):
            pointer.button(button, pressed: true)
        case .release(let button):
            pointer.button(button, pressed: false)
        case .wheel(let notches):
            pointer.wheel(notches: notches)
        case .sleep(let seconds):
            // Only requests the compositor has handled count as "happened
            // before the pause".
            try connection.roundtrip()
            var left = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - seconds.rounded(.towardZero)) * 1e9))
            var remaining = timespec()
            while nanosleep(&left, &remaining) != 0 && errno == EINTR { left = remaining }
        }
    }
    // Everything reached the compositor before we report success or exit.
    try connection.roundtrip()
}

/// Reads lines from stdin until EOF, running each and answering "ok" or
/// "error: ..." on stdout once the compositor has handled it.
func serveStdin(pointer: VirtualPointer, connection: Connection,
                extent: (width: UInt32, height: UInt32), origin: (x: Int32, y: Int32),
                verbose: Bool) throws(ToolError) {
    while let line = readLine() {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        // A malformed line is answered and skipped; a Wayland failure ends
        // the run.
        let steps: [Step]
        do {
            steps = try parseSteps(words)
        } catch {
            writeLine("error: \(error)", to: STDOUT_FILENO)
            continue
        }
        try perform(steps, pointer: pointer, connection: connection,
                    extent: extent, origin: origin, verbose: verbose)
        writeLine("ok", to: STDOUT_FILENO)
    }
}

func run(_ invocation: Invocation) throws(ToolError) {
    let connection = try Connection()
    let extent: (width: UInt32, height: UInt32)
    var origin: (x: Int32, y: Int32) = (0, 0)
    if let given = invocation.extent {
        extent = given
    } else if let bounds = connection.layoutBounds, bounds.width > 0, bounds.height > 0 {
        extent = (UInt32(bounds.width), UInt32(bounds.height))
        origin = (bounds.x, bounds.y)
    } else {
        extent = (1280, 720)
        log("no output reported a size; assuming a 1280x720 layout (use --extent W H)")
    }
    if invocation.verbose { log("layout \(extent.width)x\(extent.height) at \(origin.x),\(origin.y)") }

    // Kept until the end: destroying it unplugs the device.
    let pointer = connection.makePointer()
    try perform(invocation.steps, pointer: pointer, connection: connection,
                extent: extent, origin: origin, verbose: invocation.verbose)
    if invocation.readStdin {
        try serveStdin(pointer: pointer, connection: connection,
                       extent: extent, origin: origin, verbose: invocation.verbose)
    }
    withExtendedLifetime(pointer) {}
}

let invocation: Invocation
do {
    invocation = try parseInvocation(Array(CommandLine.arguments.dropFirst()))
} catch {
    log("\(error) (see perch-test-pointer --help)")
    exit(2)
}
if invocation.help {
    writeLine(usage, to: STDOUT_FILENO)
    exit(0)
}
do {
    try run(invocation)
} catch {
    log("\(error)")
    exit(1)
}
