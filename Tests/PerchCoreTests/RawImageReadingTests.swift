import Testing
import PerchCore

@Suite("Reading image-data where it lies")
struct RawImageReadingTests {
    /// `height` rows of `rowstride` bytes, each pixel `pixel(x, y)`.
    private func bytes(width: Int, height: Int, rowstride: Int, channels: Int,
                       _ pixel: (Int, Int) -> [UInt8]) -> [UInt8] {
        var data = [UInt8](repeating: 0xEE, count: rowstride * height)
        for y in 0 ..< height {
            for x in 0 ..< width { data.replaceSubrange(y * rowstride + x * channels ..< y * rowstride + (x + 1) * channels, with: pixel(x, y)) }
        }
        return data
    }

    @Test("a large image is reduced as it is read, to what the old three copies made, and says from what")
    func largeIsReducedAsRead() throws {
        let width = 2050, height = 2, stride = width * 4 + 8
        let data = bytes(width: width, height: height, rowstride: stride, channels: 4) { x, y in
            x % 2 == 1 && y == 0 ? [0, 0, 255, 0] : [255, 0, 0, 255]
        }
        let read = RawImage(width: width, height: height, rowstride: stride, hasAlpha: true, bitsPerSample: 8,
                            channels: 4, reading: data)
        #expect(read.problem == nil)
        #expect(read.scaledFrom == RawImage.ImageSize(width: 2050, height: 2))
        #expect(read.width == 684 && read.height == 1 && read.channels == 4 && read.rowstride == 684 * 4)
        #expect(read.data.count == 684 * 4)
        // The same pixels as the whole image converted, then bounded.
        var request = NotifyRequest(title: "t")
        request.image = RawImage(width: width, height: height, rowstride: stride, hasAlpha: true, bitsPerSample: 8,
                                 channels: 4, data: data).toastImage
        _ = NotificationLimits.bound(&request)
        #expect(read.toastImage == request.image)
    }

    @Test("a small image keeps its pixels exactly, row padding dropped, RGB made opaque RGBA")
    func smallIsPacked() throws {
        let data = bytes(width: 3, height: 2, rowstride: 12, channels: 3) { x, y in [UInt8(x), UInt8(y), 7] }
        let read = RawImage(width: 3, height: 2, rowstride: 12, hasAlpha: false, bitsPerSample: 8, channels: 3,
                            reading: data)
        #expect(read.scaledFrom == nil)
        #expect(read.data == [0, 0, 7, 255, 1, 0, 7, 255, 2, 0, 7, 255, 0, 1, 7, 255, 1, 1, 7, 255, 2, 1, 7, 255])
        let whole = RawImage(width: 3, height: 2, rowstride: 12, hasAlpha: false, bitsPerSample: 8, channels: 3,
                             data: data)
        #expect(read.toastImage == whole.toastImage)
    }

    @Test("a wrong description keeps no pixels, and its problem counts what was sent")
    func wrongKeepsNothing() {
        let read = RawImage(width: 100, height: 100, rowstride: 400, hasAlpha: true, bitsPerSample: 8, channels: 4,
                            reading: [UInt8](repeating: 1, count: 1000))
        #expect(read.data.isEmpty)
        #expect(read.problem == "1000 bytes of pixels, 40000 needed")
    }
}
