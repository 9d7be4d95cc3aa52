import CPerchSystem

/// The files this process maps read-only: its own code and read-only data,
/// its libraries', the font files and fontconfig's caches.
///
/// Promises of `releaseUnused()`:
/// - Only pages that are the file's own are given back: a mapping holding
///   any private copy of a page (a library's RELRO after relocation, a
///   text page patched by a debugger or a uprobe) is kept whole, as is
///   every writable mapping, device file and anonymous memory. What the
///   process reads afterwards is what it read before.
/// - Nothing is lost: a page given back is mapped again from the page
///   cache by the next instruction or read that needs it (a minor fault,
///   or a read from disk if memory pressure has meanwhile evicted it, as
///   it could have anyway).
/// - It costs a read of /proc/self/maps, of /proc/self/pagemap for each
///   candidate, and one madvise(2) each: for the moments the daemon goes
///   quiet, never on an animation's frame.
///
/// Why: the kernel maps code in 64 KB windows (or whole large folios)
/// around every page touched, so an idle daemon kept several megabytes of
/// start-up code, of its fonts' warm-up and of the libraries mapped
/// (counted in its RSS and Pss) that it no longer runs.
public enum MappedFiles {
    /// What a release did, in mappings.
    public struct Release: Equatable, Sendable {
        /// Given back.
        public var released: Int
        /// Left alone: they hold a private copy of a page.
        public var kept: Int
        /// madvise refused.
        public var failed: Int
    }

    /// Gives back the pages of every read-only file mapping that holds none
    /// of its own (see the type's promises).
    /// - Throws: when /proc/self/maps or /proc/self/pagemap cannot be read;
    ///   nothing was given back then.
    public static func releaseUnused() throws(SystemError) -> Release {
        var summary = perch_release_summary()
        let result = perch_release_file_pages(&summary)
        if result < 0 { throw SystemError("reading /proc/self/maps and pagemap", code: -result) }
        return Release(released: Int(summary.released), kept: Int(summary.kept), failed: Int(summary.failed))
    }
}
