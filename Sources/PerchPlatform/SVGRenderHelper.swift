import CPerchSystem
import Glibc
import PerchCore

/// Renders SVG icons in the warm `perch-svg --serve` helper, through the
/// loop: the daemon never waits for librsvg.
///
/// `render` queues a document and returns its ticket at once; the toast is
/// drawn meanwhile (without the icon), and the outcome comes back through
/// `onRendered` from the loop, where the renderer's cache takes it and the
/// toasts that wait for it are drawn again. One render is in flight at a
/// time (`SVGRenderQueue` holds the bounds and the rules of a helper that
/// leaves); one that takes longer than `timeout` gets the helper killed and
/// fails, and the next starts a new helper. The helper loads librsvg when
/// it starts, keeps it while renders come, and exits after 30 s without
/// one (librsvg, libxml2 and ICU, about 10 MB, never sit in an idle
/// daemon's memory, nor in the daemon's at all); the next SVG starts it
/// again.
public final class SVGRenderHelper: SVGRendering {
    private let helper: HelperProcess
    private var queue: SVGRenderQueue
    private let deadline: DeadlineTimer
    private let clock: () -> Instant
    /// The helper said goodbye: its end is not a crash.
    private var leaving = false
    /// Outcomes to hand over, in order; delivered from the loop's pre-poll
    /// hook, never from inside `render` (the caller is the renderer,
    /// mid-draw).
    private var undelivered: [(UInt32, SVGRenderOutcome)] = []

    /// Each outcome, by ticket, from the loop.
    public var onRendered: (_ ticket: UInt32, _ outcome: SVGRenderOutcome) -> Void = { _, _ in }

    /// - Parameters:
    ///   - helperPath: nil = `$PERCH_SVG_HELPER`, else `perch-svg` beside
    ///     the running executable.
    ///   - timeout: seconds one render may take.
    ///   - maxWaiting: renders that may wait at once; past it an icon is
    ///     left out of its toast.
    public init(loop: EventLoop, helperPath: String? = nil, timeout: Double = 1, maxWaiting: Int = 32,
                clock: @escaping () -> Instant = MonotonicClock.now) throws(SystemError) {
        let path = helperPath ?? HelperProcess.defaultPath("perch-svg", variable: "PERCH_SVG_HELPER")
        helper = HelperProcess(loop: loop, name: "perch-svg", path: path, arguments: ["--serve"],
                               maxMessage: SVGHelperWire.frameBytes + SVGHelperWire.maxMessageBytes)
        queue = SVGRenderQueue(maxWaiting: maxWaiting, timeout: timeout)
        deadline = try DeadlineTimer(loop: loop)
        self.clock = clock
        // The parameters are spelled out: Swift 6.0.3 (Debian 13's) infers
        // a borrowed `descriptor` and then refuses to pass it on consumed.
        helper.onMessage = { [unowned self] (bytes: [UInt8], descriptor: consuming FileDescriptor?) in
            self.received(bytes, descriptor)
        }
        helper.onEnd = { [unowned self] in self.helperEnded() }
        deadline.onFire = { [unowned self] in self.overran() }
        loop.addPrePollHook(.deliver) { [unowned self] in self.deliver() }
        loop.addWorkCheck { [unowned self] in !self.undelivered.isEmpty }
    }

    /// Renders waiting or in flight.
    public var waiting: Int { queue.count }
    /// The helper's process id while it runs (for tests and the bench).
    public var helperPID: pid_t? { helper.pid }

    public func render(_ document: [UInt8], box: Int) -> Result<UInt32, SVGRenderRefusal> {
        guard helper.isRunning || helper.isInstalled else {
            return .failure(.unavailable("SVG icons need the perch-svg helper: \(helper.path): "
                                         + String(cString: strerror(errno))))
        }
        guard box >= 1, box <= SVGHelperWire.maxBox else {
            return .failure(.unavailable("a box of \(box) px is out of range"))
        }
        guard let ticket = queue.add(box: box, document: document) else {
            return .failure(.busy(limit: queue.maxWaiting))
        }
        sendNext()
        return .success(ticket)
    }

    /// Call on SIGCHLD: collects a helper that ended.
    public func reap() {
        for status in helper.reap() where status & 0x7f != 0 && status & 0x7f != SIGKILL {
            Log.debug("perch-svg: the helper was \(HelperProcess.describe(status))")
        }
    }

    // MARK: The helper's side

    /// Sends the next render when none is in flight, starting the helper
    /// if it is not running.
    private func sendNext() {
        while let job = queue.sendNext(at: clock()) {
            if !helper.isRunning {
                leaving = false
                let error = helper.start()
                if error != 0 {
                    let reason = "cannot start \(helper.path): \(String(cString: strerror(error)))"
                    for failed in queue.removeAll() { undelivered.append((failed.ticket, .failed(reason))) }
                    return
                }
            }
            guard let memfd = Self.memfd(holding: job.document) else {
                _ = queue.answered(job.ticket)
                undelivered.append((job.ticket, .failed("cannot hand the document over: \(String(cString: strerror(errno)))")))
                continue
            }
            let frame = SVGHelperWire.encodeRequest(ticket: job.ticket, box: job.box, length: job.document.count)
            let sent = helper.send(frame, descriptor: memfd.rawValue)
            if sent == .sent {
                deadline.arm(at: queue.deadline)
                return
            }
            // Gone as it was asked (it left a moment ago) or jammed: this
            // one goes to a fresh helper, once more at most. A helper that
            // died is told as one that died after taking it: which of the
            // two it was is only how fast it went.
            helper.kill()
            if let failed = queue.helperLeft(saidGoodbye: true) {
                let reason = sent == .gone ? "the renderer stopped without an image"
                                           : "the renderer would not take the document"
                undelivered.append((failed.ticket, .failed(reason)))
            }
        }
        deadline.arm(at: queue.deadline)
    }

    private func received(_ frame: [UInt8], _ descriptor: consuming FileDescriptor?) {
        let box = queue.inFlight?.job.box ?? 0
        switch SVGHelperWire.decodeAnswer(frame, hasDescriptor: descriptor != nil, box: box) {
        case .success(.goodbye):
            leaving = true
        case .success(.failed(let ticket, let message)):
            guard queue.answered(ticket) != nil else { return misbehaved("an answer to no request") }
            undelivered.append((ticket, .failed(message)))
            sendNext()
        case .success(.image(let ticket, let width, let height)):
            guard let fd = descriptor, let pixels = Self.pixels(from: fd, width: width, height: height) else {
                return misbehaved("an image whose pixels cannot be read")
            }
            guard queue.answered(ticket) != nil else { return misbehaved("an answer to no request") }
            undelivered.append((ticket, .image(width: width, height: height, pixels: pixels)))
            sendNext()
        case .failure(let bad):
            misbehaved(bad.description)
        }
    }

    /// The helper said something it should not: it goes, and the render in
    /// flight fails (what it was given made it so).
    private func misbehaved(_ what: String) {
        helper.kill()
        if let failed = queue.helperLeft(saidGoodbye: false) {
            undelivered.append((failed.ticket, .failed("the renderer sent \(what)")))
        }
        sendNext()
    }

    private func helperEnded() {
        if let failed = queue.helperLeft(saidGoodbye: leaving) {
            undelivered.append((failed.ticket, .failed("the renderer stopped without an image")))
        }
        leaving = false
        sendNext()
    }

    private func overran() {
        guard let late = queue.expired(at: clock()) else { return deadline.arm(at: queue.deadline) }
        helper.kill()
        let milliseconds = Int((queue.timeout * 1000).rounded())
        undelivered.append((late.ticket, .failed("rendering took longer than \(milliseconds) ms")))
        sendNext()
    }

    private func deliver() {
        guard !undelivered.isEmpty else { return }
        let outcomes = undelivered
        undelivered = []
        for (ticket, outcome) in outcomes { onRendered(ticket, outcome) }
    }

    // MARK: Memfds

    private static func memfd(holding bytes: [UInt8]) -> FileDescriptor? {
        let raw = perch_memfd_create("perch-svg-document")
        guard raw >= 0 else { return nil }
        let fd = FileDescriptor(adopting: raw)
        var done = 0
        while done < bytes.count {
            let wrote = bytes.withUnsafeBytes { write(fd.rawValue, $0.baseAddress! + done, $0.count - done) }
            if wrote < 0 && errno == EINTR { continue }
            guard wrote > 0 else { return nil }
            done += wrote
        }
        return fd
    }

    /// The pixels of an image answer: the memfd must be a regular file of
    /// exactly width × height × 4 bytes (the size the request bounded).
    private static func pixels(from fd: borrowing FileDescriptor, width: Int, height: Int) -> [UInt32]? {
        var info = stat()
        let length = width * height * 4
        guard fstat(fd.rawValue, &info) == 0, info.st_mode & S_IFMT == S_IFREG, Int(info.st_size) == length else {
            return nil
        }
        var bytes = [UInt8](repeating: 0, count: length)
        var done = 0
        while done < length {
            let got = bytes.withUnsafeMutableBytes { pread(fd.rawValue, $0.baseAddress! + done, length - done, off_t(done)) }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { return nil }
            done += got
        }
        return SVGHelperWire.pixels(bytes, width: width, height: height)
    }
}
