import CPerchSystem
import PerchCore

/// The system's CLOCK_MONOTONIC, the only clock the daemon reads.
public enum MonotonicClock {
    public static func now() -> Instant {
        Instant(nanoseconds: Int64(perch_monotonic_ns()))
    }
}
