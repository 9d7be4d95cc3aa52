import Glibc

/// Test fixtures, found from this file's path rather than `Bundle.module`:
/// recording golden images must write into the source tree, not into the
/// build directory's copy, and this keeps Foundation out of the tests too.
enum Fixtures {
    /// `Tests/PerchRenderTests/Fixtures`, absolute.
    static let directory: String = {
        var path = "\(#filePath)"  // …/Tests/PerchRenderTests/Support/Fixtures.swift
        for _ in 0..<2 { path = String(path[..<path.lastIndex(of: "/")!]) }
        return path + "/Fixtures"
    }()

    static func path(_ name: String) -> String { directory + "/" + name }

    /// Points fontconfig at `fonts.conf` (DejaVu only). fontconfig reads
    /// FONTCONFIG_FILE once, when Pango first needs it, so every test that
    /// makes a renderer touches this first. Evaluated once per process.
    static let pinFonts: Void = {
        setenv("FONTCONFIG_FILE", path("fonts.conf"), 1)
    }()
}
