import PerchCore
import Testing

@Suite("Surface scale: buffer and surface sizes at integer and fractional scales")
struct SurfaceScaleTests {
    @Test("at 1.5 a 300 px wide card is a 450 px buffer, and an even height is exact")
    func oneAndAHalf() {
        let scale = SurfaceScale(preferred: 180)
        #expect(scale.factor == 1.5)
        #expect(scale.bufferScale == 1)
        #expect(scale.backing(width: 300, height: 100)
            == SurfaceBacking(surfaceWidth: 300, surfaceHeight: 100, bufferWidth: 450, bufferHeight: 150))
    }

    @Test("at 1.5 an odd height grows by one transparent surface pixel, so the buffer is whole pixels")
    func oddHeightAtOneAndAHalf() {
        let backing = SurfaceScale(preferred: 180).backing(width: 300, height: 101)
        #expect(backing == SurfaceBacking(surfaceWidth: 300, surfaceHeight: 102, bufferWidth: 450, bufferHeight: 153))
        // The card itself ends on the nearest whole pixel: 151.5 → 152.
        #expect(SurfaceScale(preferred: 180).pixels(101) == 152)
    }

    @Test("the step is the shortest length that is whole pixels", arguments: [
        (120, 1), (240, 1), (180, 2), (150, 4), (210, 4), (132, 10), (160, 3),
    ])
    func steps(numerator: Int, step: Int) {
        #expect(SurfaceScale(preferred: numerator).step == step)
        let backing = SurfaceScale(preferred: numerator).backing(width: 301, height: 97)
        #expect(backing.surfaceWidth % step == 0 && backing.surfaceHeight % step == 0)
        #expect(backing.surfaceWidth - 301 < step && backing.surfaceHeight - 97 < step)
        #expect(backing.bufferWidth * 120 == backing.surfaceWidth * numerator)
    }

    @Test("an integer scale keeps the surface size and multiplies the buffer")
    func integer() {
        let two = SurfaceScale(integer: 2)
        #expect(!two.isFractional && two.bufferScale == 2 && two.step == 1)
        #expect(two.backing(width: 300, height: 101)
            == SurfaceBacking(surfaceWidth: 300, surfaceHeight: 101, bufferWidth: 600, bufferHeight: 202))
        #expect(SurfaceScale(integer: 0) == .one)
    }

    @Test("it reads as the compositor's number", arguments: [
        (SurfaceScale(integer: 2), "2"), (SurfaceScale(preferred: 180), "1.5"),
        (SurfaceScale(preferred: 150), "1.25"), (SurfaceScale(preferred: 160), "1.3333"),
    ])
    func description(scale: SurfaceScale, text: String) {
        #expect(scale.description == text)
    }
}
