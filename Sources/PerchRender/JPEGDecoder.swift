import CCairo
import CJPEG

/// JPEG icons (avatars, album art) through libjpeg-turbo, which the C shim
/// loads on the first JPEG and guards with an error handler that returns
/// (`CJPEG.h`).
///
/// The size is read from the header and checked against the same
/// `IconLoader.maxDimension` as PNG before a pixel is decoded. Large
/// images are decoded at 1/2, 1/4 or 1/8 of their size when that still
/// covers the box: libjpeg does that inside its inverse DCT, so a 4096 px
/// photo for a 64 px box costs a 512 px image, not 64 MiB.
enum JPEGDecoder {
    static func decode(_ data: [UInt8], box: Int) -> Result<ScaledIcon, IconError> {
        var message = [CChar](repeating: 0, count: 256)
        guard perch_jpeg_available(&message, message.count) else {
            return .failure(.libraryMissing(IconError.text(message)))
        }
        // The decompressor reads `data` in place: all of it happens inside.
        return data.withUnsafeBufferPointer { bytes in
            guard let jpeg = perch_jpeg_open(bytes.baseAddress, bytes.count, &message, message.count) else {
                return .failure(.jpegFailed(IconError.text(message)))
            }
            defer { perch_jpeg_close(jpeg) }
            let header = perch_jpeg_info(jpeg)
            let width = Int(header.width), height = Int(header.height)
            guard width <= IconLoader.maxDimension, height <= IconLoader.maxDimension else {
                return .failure(.tooLarge(width: width, height: height))
            }
            guard header.colorSpace != PERCH_JPEG_OTHER else { return .failure(.unsupportedColourSpace) }
            guard perch_jpeg_scale_for(jpeg, Int32(box), &message, message.count) else {
                return .failure(.jpegFailed(IconError.text(message)))
            }
            let output = perch_jpeg_info(jpeg)
            let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, output.outputWidth, output.outputHeight)!
            let status = cairo_surface_status(surface)
            guard status == CAIRO_STATUS_SUCCESS, let pixels = cairo_image_surface_get_data(surface) else {
                cairo_surface_destroy(surface)
                return .failure(.cairo(status == CAIRO_STATUS_SUCCESS ? CAIRO_STATUS_NO_MEMORY : status))
            }
            let stride = Int(cairo_image_surface_get_stride(surface))
            cairo_surface_flush(surface)
            guard perch_jpeg_decode(jpeg, pixels, stride, &message, message.count) else {
                cairo_surface_destroy(surface)
                return .failure(.jpegFailed(IconError.text(message)))
            }
            cairo_surface_mark_dirty(surface)
            return ScaledIcon.fitting(surface, box: box)
        }
    }
}
