/// What a drawn piece shows, for telling its problems: the notification a
/// toast, a banner or a center entry is of (a center's group header shows
/// its first notification's icon), or one of the pieces that show none.
public enum RenderSubject: Hashable, Sendable, CustomStringConvertible {
    case notification(UInt32)
    /// The "+N more" marker of a stack.
    case marker
    /// The center's own pieces: its background, top bar and empty state.
    case center

    public var description: String {
        switch self {
        case .notification(let id): "notification \(id)"
        case .marker: "the +N more marker"
        case .center: "the center"
        }
    }
}

/// The one place render problems are told, each once per subject: a
/// notification is measured and drawn again and again (each copy on each
/// output, each hover, its entry and its group's header in the center, a
/// replace with the same icon) and says each of its problems once,
/// whichever piece met it first.
///
/// It promises:
/// - a problem is told the first time it is met for its subject, as one
///   line naming the subject and the place (`notification 12: icon
///   /x.png: file not found`), and not again for that subject;
/// - the same problem met for another subject is handed on for that one
///   too, with its cause (the line without the subject: `icon /x.png: file
///   not found`), so that the log's throttle (`LogThrottle`) says one
///   cause met by many notifications once, then counts it;
/// - what it remembers is bounded: only subjects with problems are kept,
///   at most `capacity` of them, the one told longest ago forgotten first
///   (a notification that old is long off screen).
public final class ProblemTeller {
    private struct Told {
        var problems: Set<RenderProblem>
        var lastUse: UInt64
    }

    public let capacity: Int
    private let tell: (_ line: String, _ cause: String) -> Void
    private var told: [RenderSubject: Told] = [:]
    private var uses: UInt64 = 0

    /// - Parameter tell: writes one line, given with its cause (the
    ///   daemon's log, through its throttle).
    public init(capacity: Int = 256, tell: @escaping (_ line: String, _ cause: String) -> Void) {
        self.capacity = max(1, capacity)
        self.tell = tell
    }

    /// Tells those of `problems` not yet told about `subject`.
    public func tell(_ problems: [RenderProblem], about subject: RenderSubject) {
        // An icon on its way is no problem (it is drawn when it comes).
        let problems = problems.contains(where: \.isWaiting) ? problems.filter { !$0.isWaiting } : problems
        guard !problems.isEmpty else { return }
        uses += 1
        var entry = told[subject] ?? Told(problems: [], lastUse: uses)
        entry.lastUse = uses
        for problem in problems where entry.problems.insert(problem).inserted {
            tell("\(subject): \(problem)", "\(problem)")
        }
        if told[subject] == nil, told.count >= capacity { forgetOldest() }
        told[subject] = entry
    }

    /// How many subjects it remembers (for tests).
    var count: Int { told.count }

    private func forgetOldest() {
        guard let oldest = told.min(by: { $0.value.lastUse < $1.value.lastUse }) else { return }
        told[oldest.key] = nil
    }
}
