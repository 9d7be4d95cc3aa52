import Glibc
@testable import PerchRender
import Testing

@Suite("SVG icons are rendered at their box size, and hostile ones cannot hurt the daemon")
struct SVGDecoderTests {
    func svg(_ body: String, attributes: String = #"viewBox="0 0 32 32""#) -> [UInt8] {
        Array(#"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" \#(attributes)>\#(body)</svg>"#.utf8)
    }

    func render(_ document: [UInt8], box: Int) -> Result<ScaledIcon, IconError> {
        let scratch = ScratchDirectory()
        return loadIcon(scratch.bytes("icon.svg", document), box: box)
    }

    /// Pixels along row `y` whose alpha is neither 0 nor 255.
    func blurred(_ icon: ScaledIcon, row y: Int) -> [Int] {
        (0..<icon.width).filter { icon[$0, y].a != 0 && icon[$0, y].a != 255 }
    }

    @Test("a circle fills a 32 px and a 64 px box, with edges one pixel soft at most", arguments: [32, 64])
    func circle(box: Int) throws {
        let icon = try render(svg(##"<circle cx="16" cy="16" r="16" fill="#ff0000"/>"##), box: box).get()
        #expect(icon.width == box && icon.height == box)
        let middle = box / 2
        #expect(icon[middle, middle] == Pixel(a: 255, r: 255, g: 0, b: 0))
        #expect(icon[0, 0].a == 0 && icon[box - 1, box - 1].a == 0, "the corners are outside the circle")
        // Rendered for this size, not scaled from another: each side of the
        // middle row crosses the edge within one pixel.
        let soft = blurred(icon, row: middle)
        #expect(soft.count <= 2, "\(soft)")
        #expect(icon[1, middle].a == 255 && icon[box - 2, middle].a == 255)
    }

    @Test("a square's edges fall on whole pixels at a fractional scale (box 48 = 32 × 1.5)")
    func fractionalScale() throws {
        let icon = try render(svg(##"<rect x="8" y="8" width="16" height="16" fill="#0000ff"/>"##), box: 48).get()
        #expect(icon.width == 48)
        #expect(icon[11, 24].a == 0 && icon[12, 24] == Pixel(a: 255, r: 0, g: 0, b: 255))
        #expect(icon[35, 24] == Pixel(a: 255, r: 0, g: 0, b: 255) && icon[36, 24].a == 0)
        #expect(blurred(icon, row: 24).isEmpty)
    }

    @Test("with only a viewBox, its proportions give the icon's shape")
    func viewBoxOnly() throws {
        let icon = try render(svg(#"<rect width="200" height="100" fill="red"/>"#, attributes: #"viewBox="0 0 200 100""#),
                              box: 64).get()
        #expect(icon.width == 64 && icon.height == 32)
        #expect(icon[0, 0].a == 255 && icon[63, 31].a == 255)
    }

    @Test("with only a width and height, the document is scaled to the box")
    func sizeOnly() throws {
        let icon = try render(svg(#"<rect width="20" height="10" fill="red"/>"#, attributes: #"width="20" height="10""#),
                              box: 40).get()
        #expect(icon.width == 40 && icon.height == 20)
        #expect(icon[39, 19] == Pixel(a: 255, r: 255, g: 0, b: 0))
    }

    @Test("a gzipped .svgz document renders like the plain one")
    func svgz() throws {
        let icon = try loadIcon(Fixtures.path("images/green-square.svgz"), box: 32).get()
        #expect(icon.width == 32)
        #expect(icon[16, 16] == Pixel(a: 255, r: 0, g: 255, b: 0) && icon[4, 4].a == 0)
    }

    @Test("a 100000 × 100000 canvas renders into the box, quickly")
    func hugeCanvas() throws {
        var result: Result<ScaledIcon, IconError>?
        let time = seconds {
            result = render(svg(#"<circle cx="50000" cy="50000" r="50000" fill="red"/>"#,
                                attributes: #"width="100000" height="100000""#), box: 32)
        }
        let icon = try #require(try? result?.get())
        #expect(icon.width == 32 && icon.height == 32)
        #expect(icon[16, 16].a == 255)
        #expect(time < 0.5, "\(time) s")
    }

    @Test("billion laughs (nested entities) is refused by the XML parser at once")
    func billionLaughs() {
        var entities = #"<!ENTITY lol "lol">"#
        for level in 1...9 {
            let previous = level == 1 ? "&lol;" : "&lol\(level - 1);"
            entities += "<!ENTITY lol\(level) \"\(String(repeating: previous, count: 10))\">"
        }
        let document = "<?xml version=\"1.0\"?><!DOCTYPE svg [\(entities)]>"
            + #"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><text>&lol9;</text></svg>"#
        var result: Result<ScaledIcon, IconError>?
        let time = seconds { result = render(Array(document.utf8), box: 32) }
        guard case .failure(.svgFailed(let message)) = result else {
            Issue.record("expected an error, got \(String(describing: result))")
            return
        }
        #expect(message.contains("XML parse error"), "\(message)")
        #expect(time < 0.5, "\(time) s")
    }

    @Test("files the document refers to are not read: <image> of a PNG beside it, file: URLs, <use> of another file, @import")
    func externalReferencesAreNotLoaded() throws {
        let scratch = ScratchDirectory()
        let red = scratch.solidPNG("red.png", width: 8, height: 8, red: 1, green: 0, blue: 0)
        scratch.bytes("other.svg", svg(#"<rect id="r" width="32" height="32" fill="red"/>"#))
        scratch.bytes("evil.css", Array("rect { fill: red; }".utf8))
        let document = svg("""
            <style>@import url("evil.css"); @import url("file://\(scratch.file("evil.css"))");</style>
            <image width="32" height="32" xlink:href="red.png"/>
            <image width="32" height="32" href="file://\(red)"/>
            <image width="32" height="32" href="\(red)"/>
            <use xlink:href="other.svg#r"/>
            <rect x="12" y="12" width="8" height="8" fill="blue"/>
            """)
        let icon = try loadIcon(scratch.bytes("refers.svg", document), box: 32).get()
        #expect(icon[2, 2].a == 0, "nothing drawn from the PNG or the other SVG: \(icon[2, 2])")
        #expect(icon[16, 16] == Pixel(a: 255, r: 0, g: 0, b: 255), "the stylesheet was not imported: \(icon[16, 16])")
    }

    @Test("an external entity (XXE) is not read")
    func externalEntity() {
        let document = #"<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]>"#
            + #"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><text>&x;</text></svg>"#
        guard case .failure(.svgFailed) = render(Array(document.utf8), box: 32) else {
            Issue.record("expected an error")
            return
        }
    }

    @Test("a document that renders for seconds (nested patterns) is stopped at the deadline")
    func slowDocumentIsStopped() {
        var patterns = #"<pattern id="p0" width="1" height="1" patternUnits="userSpaceOnUse"><rect width="1" height="1" fill="red"/></pattern>"#
        for level in 1...8 {
            patterns += #"<pattern id="p\#(level)" width="10" height="10" patternUnits="userSpaceOnUse">"#
                + (0..<10).map { #"<rect x="\#($0)" width="1" height="10" fill="url(#p\#(level - 1))"/>"# }.joined()
                + "</pattern>"
        }
        let document = svg("<defs>\(patterns)</defs>" + #"<rect width="10" height="10" fill="url(#p8)"/>"#,
                           attributes: #"viewBox="0 0 10 10""#)
        var result: Result<ScaledIcon, IconError>?
        let time = seconds { result = render(document, box: 32) }
        guard case .failure(.svgFailed(let message)) = result else {
            Issue.record("expected an error, got \(String(describing: result))")
            return
        }
        #expect(message == "rendering took longer than \(SVGDecoder.timeoutMilliseconds) ms")
        #expect(time < Double(SVGDecoder.timeoutMilliseconds) / 1000 + 0.5, "\(time) s")
    }

    @Test("a document that crashes librsvg (a huge feConvolveMatrix) takes down only the helper")
    func crashIsContained() {
        let kernel = Array(repeating: "1", count: 300 * 300).joined(separator: " ")
        let document = svg(#"<filter id="f"><feConvolveMatrix order="300" kernelMatrix="\#(kernel)"/></filter>"#
                           + #"<rect width="10" height="10" filter="url(#f)"/>"#, attributes: #"viewBox="0 0 10 10""#)
        // librsvg 2.54 (Debian 12) panics (nalgebra: "Data storage buffer
        // dimension mismatch"), and a panic across its C API aborts the
        // process. 2.60 (Debian 13) draws it: there a helper that aborts
        // by itself stands in for the crash.
        var result = render(document, box: 32)
        let scratch = ScratchDirectory()
        if case .success = result {
            let aborting = scratch.bytes("perch-svg", Array("#!/bin/sh\nkill -ABRT $$\n".utf8))
            chmod(aborting, 0o755)
            result = SVGDecoder.decode(document, box: 32, helper: aborting)
        }
        guard case .failure(.svgFailed(let message)) = result else {
            Issue.record("expected the helper to fail, got \(String(describing: result))")
            return
        }
        #expect(message == "the renderer died (Aborted)")
    }

    @Test("not an SVG after all: XML with another root inside a long prolog")
    func otherRoot() {
        let document = "<!--" + String(repeating: "x", count: 600) + "--><html><body/></html>"
        guard case .failure(.svgFailed) = render(Array(document.utf8), box: 32) else {
            Issue.record("expected librsvg to refuse it")
            return
        }
    }

    @Test("a missing helper is a clear error")
    func missingHelper() {
        let result = SVGDecoder.decode(svg("<rect width='1' height='1'/>"), box: 32, helper: "/nonexistent/perch-svg")
        guard case .failure(let error) = result else {
            Issue.record("expected an error")
            return
        }
        #expect(error == .libraryMissing("SVG icons need the perch-svg helper: /nonexistent/perch-svg: No such file or directory"))
    }
}
