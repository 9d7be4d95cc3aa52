import Glibc
import PerchCore

/// Prints waybar's lines, never the same line twice in a row (waybar
/// redraws the module for each).
struct WaybarPrinter {
    private var last: String?

    mutating func print(_ object: JSONValue) {
        let line = JSON.serialize(object)
        guard line != last else { return }
        last = line
        Swift.print(line)
        fflush(nil)
    }

    /// The next line is printed even if it is the last one again.
    mutating func forget() { last = nil }
}
