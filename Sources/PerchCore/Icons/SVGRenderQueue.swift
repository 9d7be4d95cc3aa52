/// The SVG renders the daemon waits for, and the one its helper is at.
///
/// It promises:
/// - at most `maxWaiting` renders wait (the one in flight included), and
///   their documents hold at most `maxBytes`; past either, `add` refuses
///   and the icon is left out of that toast, so a flood of distinct SVGs
///   costs bounded memory and the last of them never waits minutes;
/// - one render is in flight at a time, the oldest waiting first, so the
///   deadline of the one in flight is the helper's own;
/// - a render in flight past its deadline is given back once, by
///   `expired(at:)`, to be failed (the helper is then killed);
/// - a helper that leaves saying goodbye (idle, or served enough) hands
///   its render back: it is sent first to the next helper, at most
///   `maxAttempts` times in all; one that stops without answering fails
///   it (the document took it down). Either way the rest keep waiting for
///   the next helper;
/// - tickets are never 0 and not reused while their render waits.
public struct SVGRenderQueue: Sendable {
    public struct Job: Equatable, Sendable {
        public var ticket: UInt32
        /// Buffer pixels of the square the image must fit.
        public var box: Int
        public var document: [UInt8]
        /// How many times it was sent to a helper.
        public var attempts = 0
    }

    public let maxWaiting: Int
    public let maxBytes: Int
    /// Seconds a render may take once sent.
    public let timeout: Double
    public let maxAttempts = 2

    /// Waiting to be sent, oldest first.
    public private(set) var waiting: [Job] = []
    /// Sent, not yet answered, and when it is late.
    public private(set) var inFlight: (job: Job, deadline: Instant)?
    private var bytes = 0
    private var lastTicket: UInt32 = 0

    public init(maxWaiting: Int = 32, maxBytes: Int = 16 << 20, timeout: Double = 1) {
        self.maxWaiting = max(1, maxWaiting)
        self.maxBytes = maxBytes
        self.timeout = timeout
    }

    /// Renders waiting or in flight.
    public var count: Int { waiting.count + (inFlight == nil ? 0 : 1) }

    /// When the render in flight is late; nil when none is.
    public var deadline: Instant? { inFlight?.deadline }

    /// Queues `document` for a `box`-pixel square; its ticket, or nil when
    /// too many wait already (or their documents are too large together).
    public mutating func add(box: Int, document: [UInt8]) -> UInt32? {
        guard count < maxWaiting, bytes + document.count <= maxBytes else { return nil }
        lastTicket = lastTicket == UInt32.max ? 1 : lastTicket + 1
        waiting.append(Job(ticket: lastTicket, box: box, document: document))
        bytes += document.count
        return lastTicket
    }

    /// The next render to send, when none is in flight; it is then in
    /// flight until `deadline`.
    public mutating func sendNext(at now: Instant) -> Job? {
        guard inFlight == nil, !waiting.isEmpty else { return nil }
        var job = waiting.removeFirst()
        job.attempts += 1
        inFlight = (job, now + timeout)
        return job
    }

    /// The helper answered `ticket`; the job, when it is the one in flight
    /// (an answer for any other ticket is the helper's mistake: nil).
    public mutating func answered(_ ticket: UInt32) -> Job? {
        guard let current = inFlight, current.job.ticket == ticket else { return nil }
        inFlight = nil
        bytes -= current.job.document.count
        return current.job
    }

    /// The render in flight, when it is late at `now`: it is failed, and
    /// the helper must go.
    public mutating func expired(at now: Instant) -> Job? {
        guard let current = inFlight, current.deadline <= now else { return nil }
        inFlight = nil
        bytes -= current.job.document.count
        return current.job
    }

    /// The helper is gone. After a goodbye, the render in flight is sent
    /// again first (up to `maxAttempts`); otherwise it is failed. Returns
    /// the failed one, if any.
    public mutating func helperLeft(saidGoodbye: Bool) -> Job? {
        guard let current = inFlight else { return nil }
        inFlight = nil
        if saidGoodbye && current.job.attempts < maxAttempts {
            waiting.insert(current.job, at: 0)
            return nil
        }
        bytes -= current.job.document.count
        return current.job
    }

    /// Every render, in flight and waiting, given up (the helper cannot be
    /// started at all); returns them, in flight first.
    public mutating func removeAll() -> [Job] {
        let all = (inFlight.map { [$0.job] } ?? []) + waiting
        inFlight = nil
        waiting = []
        bytes = 0
        return all
    }
}

/// What rendering one SVG came to.
public enum SVGRenderOutcome: Equatable, Sendable {
    /// `width` × `height` Cairo ARGB32 words, rows packed.
    case image(width: Int, height: Int, pixels: [UInt32])
    /// Why not, for the log ("rendering took longer than 1000 ms").
    case failed(String)
}

/// Renders SVG documents away from the loop: `render` returns at once, and
/// the outcome comes later through the loop, by its ticket. The daemon's
/// is Platform's `SVGRenderHelper` (the warm `perch-svg --serve`); the
/// renderer's icon cache asks it and draws the toast meanwhile.
public protocol SVGRendering: AnyObject {
    /// Queues `document` (SVG or gzipped SVG) fitted to a `box`-pixel
    /// square; its ticket, or why it cannot be rendered now.
    func render(_ document: [UInt8], box: Int) -> Result<UInt32, SVGRenderRefusal>
}

/// Why an SVG is not even queued.
public enum SVGRenderRefusal: Error, Equatable, Sendable, CustomStringConvertible {
    /// `limit` renders wait already (or their documents fill the bound).
    case busy(limit: Int)
    /// The helper cannot be run; the reason.
    case unavailable(String)

    public var description: String {
        switch self {
        case .busy(let limit): "left out: \(limit) SVG icons are waiting to be rendered already"
        case .unavailable(let reason): reason
        }
    }
}
