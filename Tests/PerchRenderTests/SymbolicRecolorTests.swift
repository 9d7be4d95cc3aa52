import PerchCore
@testable import PerchRender
import Testing

@Suite("Symbolic icons take the given colour and keep their shape")
struct SymbolicRecolorTests {
    let orange = RGBA(red: 1, green: 0.5, blue: 0)

    @Test("every pixel takes the colour and keeps its alpha")
    func recolour() throws {
        let scratch = ScratchDirectory()
        let path = scratch.solidPNG("ghost.png", width: 16, height: 16, red: 0.2, green: 0.9, blue: 0.3, alpha: 0.5)
        let icon = try IconLoader.load(path: path, box: 16, colour: orange, files: iconFiles).0.get()
        // Alpha 0.5 → 128; premultiplied orange: (128, 64, 0).
        #expect(isClose(icon[8, 8], 128, 128, 64, 0, tolerance: 1), "\(icon[8, 8])")
    }

    @Test("an SVG's transparent outside stays transparent and its edges keep their coverage")
    func svgShape() throws {
        let scratch = ScratchDirectory()
        let document = ##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><circle cx="8" cy="8" r="6" fill="#bebebe"/></svg>"##
        let path = scratch.bytes("dialog-symbolic.svg", Array(document.utf8))
        let plain = try IconLoader.load(path: path, box: 32, files: iconFiles).0.get()
        let icon = try IconLoader.load(path: path, box: 32, colour: RGBA(red: 0, green: 0, blue: 1), files: iconFiles).0.get()
        #expect(icon[0, 0] == .transparent)
        #expect(icon[16, 16] == Pixel(a: 255, r: 0, g: 0, b: 255))
        for x in 0..<32 {
            #expect(icon[x, 16].a == plain[x, 16].a && icon[x, 16].b == plain[x, 16].a && icon[x, 16].r == 0)
        }
    }

    @Test("a translucent colour scales the alpha")
    func translucentColour() throws {
        let scratch = ScratchDirectory()
        let path = scratch.solidPNG("dot.png", width: 8, height: 8, red: 1, green: 1, blue: 1)
        let icon = try IconLoader.load(path: path, box: 8, colour: RGBA(red: 1, green: 1, blue: 1, alpha: 0.5), files: iconFiles).0.get()
        #expect(isClose(icon[4, 4], 128, 128, 128, 128, tolerance: 1), "\(icon[4, 4])")
    }

    @Test("the cache keeps one entry per colour and decodes each once")
    func cachePerColour() throws {
        let scratch = ScratchDirectory()
        let path = scratch.solidPNG("icon.png", width: 16, height: 16, red: 0, green: 0, blue: 0)
        let cache = IconCache(files: iconFiles)
        let white = try cache.icon(at: path, box: 16, colour: .white).get()
        let black = try cache.icon(at: path, box: 16, colour: .black).get()
        let plain = try cache.icon(at: path, box: 16).get()
        #expect(cache.count == 3)
        #expect(white[8, 8] == .white && black[8, 8] == Pixel(a: 255, r: 0, g: 0, b: 0) && plain[8, 8].a == 255)
        #expect(try cache.icon(at: path, box: 16, colour: .white).get() === white, "served from the cache")
        #expect(try cache.icon(at: path, box: 16, colour: RGBA(red: 1, green: 1, blue: 1.0001)).get() === white,
                "a colour within 1/255 is the same entry")
        #expect(cache.holds(path, box: 16, colour: .black) && cache.holds(path, box: 16))
    }

    @Test("a bad SVG is remembered, not rendered again on every post")
    func badFileRemembered() {
        let scratch = ScratchDirectory()
        let path = scratch.bytes("broken.svg", Array("<svg xmlns='http://www.w3.org/2000/svg'><rect".utf8))
        let cache = IconCache(files: iconFiles)
        guard case .failure(.svgFailed) = cache.icon(at: path, box: 32, colour: .white) else {
            Issue.record("expected an SVG error")
            return
        }
        #expect(cache.holds(path, box: 32, colour: .white))
        let again = seconds { _ = cache.icon(at: path, box: 32, colour: .white) }
        #expect(again < 0.005, "no helper started the second time: \(again) s")
    }
}
