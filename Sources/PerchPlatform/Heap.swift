import CPerchSystem

/// The C heap the whole process allocates from (Swift objects, Cairo,
/// Pango, sd-bus).
public enum Heap {
    /// Gives the pages of freed memory back to the kernel. The allocator
    /// keeps them otherwise: after a flood, or after the state snapshot
    /// built all of the state in memory, they stay resident, scattered
    /// between live objects where no later request fits exactly, and the
    /// daemon's memory creeps up with every such peak. Walks the free
    /// lists: for the rare moments after a large release, not every turn.
    public static func releaseFree() {
        _ = perch_release_free_heap()
    }
}
