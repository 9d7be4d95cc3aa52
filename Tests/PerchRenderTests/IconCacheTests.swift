@testable import PerchRender
import Testing

@Suite("The icon cache stays small and fresh")
struct IconCacheTests {
    @Test("the least recently used icon is evicted when the cache is full")
    func leastRecentlyUsedIsEvicted() throws {
        let scratch = ScratchDirectory()
        let a = scratch.solidPNG("a.png", width: 8, height: 8, red: 1, green: 0, blue: 0)
        let b = scratch.solidPNG("b.png", width: 8, height: 8, red: 0, green: 1, blue: 0)
        let c = scratch.solidPNG("c.png", width: 8, height: 8, red: 0, green: 0, blue: 1)
        let cache = IconCache(capacity: 2, files: iconFiles)
        _ = try cache.icon(at: a, box: 32).get()
        _ = try cache.icon(at: b, box: 32).get()
        _ = try cache.icon(at: a, box: 32).get()
        _ = try cache.icon(at: c, box: 32).get()
        #expect(cache.count == 2)
        #expect(cache.holds(a, box: 32) && cache.holds(c, box: 32))
        #expect(!cache.holds(b, box: 32))
    }

    @Test("the same path at another buffer scale is a separate entry")
    func boxIsPartOfTheKey() throws {
        let scratch = ScratchDirectory()
        let a = scratch.solidPNG("a.png", width: 100, height: 100, red: 1, green: 0, blue: 0)
        let cache = IconCache(files: iconFiles)
        #expect(try cache.icon(at: a, box: 32).get().width == 32)
        #expect(try cache.icon(at: a, box: 64).get().width == 64)
        #expect(cache.count == 2)
    }

    @Test("a bad file is remembered, a missing one is not")
    func failures() {
        let scratch = ScratchDirectory()
        let bad = scratch.bytes("bad.png", Array("not an image".utf8))
        let cache = IconCache(files: iconFiles)
        #expect(throws: IconError.notPNG) { try cache.icon(at: bad, box: 32).get() }
        #expect(throws: IconError.notPNG) { try cache.icon(at: bad, box: 32).get() }
        #expect(cache.holds(bad, box: 32))
        #expect(throws: IconError.self) { try cache.icon(at: scratch.file("missing.png"), box: 32).get() }
        #expect(cache.count == 1)
    }
}
