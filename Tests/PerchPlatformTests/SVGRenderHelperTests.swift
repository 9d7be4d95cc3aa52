import Glibc
import PerchCore
import Testing
@testable import PerchPlatform

/// The warm SVG helper as the daemon runs it, with the real perch-svg and
/// with stand-ins that misbehave: whatever the helper does, every render
/// gets one outcome, and the daemon's side neither crashes nor waits.
@Suite("SVG icons are rendered by a warm helper through the loop", .serialized)
struct SVGRenderHelperTests {
    let scratch = TemporaryDirectory("svg-helper-test")

    /// A stand-in helper: a shell script.
    func script(_ name: String, _ body: String) -> String {
        let path = scratch.path + "/" + name
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o700)
        precondition(fd >= 0)
        let text = Array("#!/bin/sh\n\(body)\n".utf8)
        _ = text.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        return path
    }

    /// Runs the loop until `count` outcomes came or 5 s passed.
    func outcomes(_ count: Int, from helper: SVGRenderHelper, _ loop: EventLoop,
                  render: (SVGRenderHelper) -> Void) throws -> [(UInt32, SVGRenderOutcome)] {
        var got: [(UInt32, SVGRenderOutcome)] = []
        helper.onRendered = { got.append(($0, $1)) }
        render(helper)
        let end = MonotonicClock.now() + 5
        while got.count < count, MonotonicClock.now() < end {
            try loop.runOnce(timeoutMilliseconds: 20)
            helper.reap()
        }
        return got
    }

    static let red = Array(("<svg xmlns='http://www.w3.org/2000/svg' width='16' height='16'>"
                            + "<rect width='16' height='16' fill='#ff0000'/></svg>").utf8)

    @Test("the real helper answers each render with its pixels, one helper for all of them")
    func realHelper() throws {
        let loop = EventLoop()
        let helper = try SVGRenderHelper(loop: loop)
        var tickets: [UInt32] = []
        var pids: Set<pid_t> = []
        let got = try outcomes(3, from: helper, loop) { helper in
            for box in [16, 8, 32] {
                if case .success(let ticket) = helper.render(Self.red, box: box) { tickets.append(ticket) }
                if let pid = helper.helperPID { pids.insert(pid) }
            }
        }
        #expect(got.map(\.0) == tickets)
        for ((_, outcome), box) in zip(got, [16, 8, 32]) {
            guard case .image(let width, let height, let pixels) = outcome else {
                Issue.record("expected an image, got \(outcome)")
                continue
            }
            #expect(width == box && height == box)
            #expect(pixels.allSatisfy { $0 == 0xFFFF_0000 }, "opaque red")
        }
        #expect(pids.count == 1)
        #expect(helper.waiting == 0)
    }

    @Test("a document librsvg refuses fails alone; the helper goes on with the next")
    func refusedDocument() throws {
        let loop = EventLoop()
        let helper = try SVGRenderHelper(loop: loop)
        let got = try outcomes(2, from: helper, loop) { helper in
            _ = helper.render(Array("<svg xmlns='http://www.w3.org/2000/svg'><rect".utf8), box: 16)
            _ = helper.render(Self.red, box: 16)
        }
        #expect(got.count == 2)
        if case .failed = got.first?.1 {} else { Issue.record("the broken document should fail: \(got)") }
        if case .image = got.last?.1 {} else { Issue.record("the next should render: \(got)") }
    }

    @Test("a helper that sends garbage is killed, and each render it had fails; none is lost")
    func garbage() throws {
        let loop = EventLoop()
        let path = script("garbage", "printf 'hello, daemon'; sleep 10")
        let helper = try SVGRenderHelper(loop: loop, helperPath: path)
        let got = try outcomes(2, from: helper, loop) { helper in
            _ = helper.render(Self.red, box: 16)
            _ = helper.render(Self.red, box: 16)
        }
        #expect(got.count == 2)
        for (_, outcome) in got {
            #expect(outcome == .failed("the renderer sent a frame of 13 bytes"))
        }
        #expect(helper.helperPID == nil)
    }

    @Test("a render that overruns its time gets the helper killed; the next render starts another")
    func overrun() throws {
        let loop = EventLoop()
        let path = script("silent", "exec sleep 10")
        let helper = try SVGRenderHelper(loop: loop, helperPath: path, timeout: 0.2)
        var first: pid_t?
        let got = try outcomes(2, from: helper, loop) { helper in
            _ = helper.render(Self.red, box: 16)
            _ = helper.render(Self.red, box: 16)
            first = helper.helperPID
        }
        #expect(got.map(\.1) == [.failed("rendering took longer than 200 ms"), .failed("rendering took longer than 200 ms")])
        if let first { #expect(kill(first, 0) != 0, "the first helper was killed") }
    }

    @Test("a helper that dies fails its render; one that says goodbye hands it on, twice at most")
    func endings() throws {
        let loop = EventLoop()
        let dies = try SVGRenderHelper(loop: loop, helperPath: script("dies", "exit 3"))
        let died = try outcomes(1, from: dies, loop) { _ = $0.render(Self.red, box: 16) }
        #expect(died.map(\.1) == [.failed("the renderer stopped without an image")])

        let otherLoop = EventLoop()
        let leaves = try SVGRenderHelper(loop: otherLoop, helperPath: script("leaves", "printf 'SVGB\\000\\000\\000\\000\\000\\000\\000\\000\\000\\000\\000\\000'"))
        let left = try outcomes(1, from: leaves, otherLoop) { _ = $0.render(Self.red, box: 16) }
        #expect(left.map(\.1) == [.failed("the renderer stopped without an image")])
    }

    @Test("past 32 waiting renders an SVG is refused at once; a missing helper is said at once")
    func refusals() throws {
        let loop = EventLoop()
        let helper = try SVGRenderHelper(loop: loop, helperPath: script("slow", "exec sleep 10"), maxWaiting: 32)
        var results: [Result<UInt32, SVGRenderRefusal>] = []
        for _ in 0..<33 { results.append(helper.render(Self.red, box: 16)) }
        #expect(results.prefix(32).allSatisfy { (try? $0.get()) != nil })
        #expect(results.last == .failure(.busy(limit: 32)))

        let otherLoop = EventLoop()
        let missing = try SVGRenderHelper(loop: otherLoop, helperPath: scratch.path + "/none")
        guard case .failure(.unavailable(let reason)) = missing.render(Self.red, box: 16) else {
            Issue.record("a missing helper should be refused")
            return
        }
        #expect(reason.hasPrefix("SVG icons need the perch-svg helper: ") && reason.hasSuffix("No such file or directory"))
    }
}
