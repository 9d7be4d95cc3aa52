import CPerchSystem
import Glibc
import PerchCore

/// The system's CLOCK_MONOTONIC, the only clock the daemon reads.
public enum MonotonicClock {
    public static func now() -> Instant {
        Instant(nanoseconds: Int64(perch_monotonic_ns()))
    }
}

/// The wall clock, for the times people read (history's "closed at").
public enum WallClock {
    /// Seconds since the Unix epoch.
    public static func now() -> Int64 {
        Int64(time(nil))
    }

    /// How far local time is ahead of UTC now, in seconds (the time zone
    /// and its daylight saving time, from the C library's `localtime_r`).
    public static func utcOffset() -> Int64 {
        var now = time(nil)
        var local = tm()
        guard localtime_r(&now, &local) != nil else { return 0 }
        return Int64(local.tm_gmtoff)
    }
}
