import Glibc
import PerchCore
import Testing
@testable import PerchPlatform

/// Turns `loop` until `condition` holds or `seconds` pass, reaping the
/// menu program each turn as the daemon's SIGCHLD handler does.
private func turn(_ loop: EventLoop, _ menu: MenuProgram, seconds: Double = 5, until condition: () -> Bool) throws {
    // As perch's main does: a program that quits without reading is EPIPE.
    signal(SIGPIPE, SIG_IGN)
    let giveUp = MonotonicClock.now() + seconds
    while !condition(), MonotonicClock.now() < giveUp {
        try loop.runOnce(timeoutMilliseconds: 20)
        menu.reap()
    }
}

@Suite("The menu program, run from the loop")
struct MenuProgramTests {
    @Test("it gets the lines on its standard input and the first line it prints is the choice")
    func choice() throws {
        let loop = EventLoop()
        let menu = MenuProgram(loop: loop)
        var chosen: String??
        let opened = try menu.open(["/bin/sh", "-c", "sed -n 2p"], lines: ["#One (a) [1,x]", "#Two (b) [2,y]"]) {
            chosen = .some($0)
        }
        #expect(opened)
        try turn(loop, menu) { chosen != nil }
        #expect(chosen == .some("#Two (b) [2,y]"))
        #expect(!menu.isOpen)
    }

    @Test("a menu that fails (dmenu on Escape), prints nothing or never reads chooses nothing")
    func nothingChosen() throws {
        for script in ["exit 1", "cat > /dev/null", "exec 0<&-; echo picked; exit 3"] {
            let loop = EventLoop()
            let menu = MenuProgram(loop: loop)
            var chosen: String??
            // Far more than a pipe holds, so a program that does not read
            // it makes the write fail, which is no error.
            signal(SIGPIPE, SIG_IGN)
        let lines = (0..<20_000).map { "#Action \($0) (a long summary) [\($0),a]" }
            _ = try menu.open(["/bin/sh", "-c", script], lines: lines) { chosen = .some($0) }
            try turn(loop, menu) { chosen != nil }
            #expect(chosen == .some(nil), "\(script)")
        }
    }

    @Test("opening never waits for the program, and a second menu is refused while one is open")
    func oneAtATime() throws {
        let loop = EventLoop()
        let menu = MenuProgram(loop: loop)
        let start = MonotonicClock.now()
        var chosen: String??
        #expect(try menu.open(["/bin/sh", "-c", "sleep 0.3; echo late"], lines: ["x"]) { chosen = .some($0) })
        #expect(MonotonicClock.now() - start < 0.2)
        #expect(try !menu.open(["/bin/true"], lines: ["y"]) { _ in Issue.record("the second menu ran") })
        try turn(loop, menu) { chosen != nil }
        #expect(chosen == .some("late"))
    }

    @Test("a program that cannot be started is an error, and no menu is left open")
    func cannotStart() throws {
        let loop = EventLoop()
        let menu = MenuProgram(loop: loop)
        #expect(throws: SystemError.self) {
            _ = try menu.open(["/nonexistent/menu-program"], lines: ["x"]) { _ in }
        }
        #expect(!menu.isOpen)
    }
}
