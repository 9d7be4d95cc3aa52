import CCairo
import Glibc
import PerchCore

/// Reads icon files (PNG, JPEG, SVG) without trusting them.
///
/// Icon paths come from other programs' notifications, so the file may be
/// missing, a FIFO, a text file, truncated, a 50 MB file, or a 30000×30000
/// PNG meant to exhaust memory. The file's size and the image's header are
/// checked before anything is decoded, and every failure is an
/// `IconError`, never a crash. `IconDecoder` picks the decoder.
enum IconLoader {
    /// Largest accepted width or height, in image pixels. Bounds the
    /// decoded size to 64 MiB before the image is scaled down.
    static let maxDimension = 4096

    /// What identifies a file's current contents: a rewrite in place, a
    /// rename over the path or a deletion all change it.
    struct FileStamp: Equatable {
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var modifiedSeconds: Int
        var modifiedNanoseconds: Int

        init(_ info: stat) {
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
            size = Int64(info.st_size)
            modifiedSeconds = Int(info.st_mtim.tv_sec)
            modifiedNanoseconds = Int(info.st_mtim.tv_nsec)
        }
    }

    static func stamp(of path: String) -> Result<FileStamp, IconError> {
        var info = stat()
        guard stat(path, &info) == 0 else { return .failure(.unreadable(errno: errno)) }
        return .success(FileStamp(info))
    }

    /// Decodes the image at `path` and fits it to a `box` × `box` square
    /// (buffer pixels), keeping its aspect ratio. Small icons are scaled up
    /// as well as large ones down, so every icon fills the space the layout
    /// reserves for it and a 32 px icon stays the same size on a scale-2
    /// output (where the box is 64 buffer pixels). SVGs are rendered at
    /// that size, not scaled. With a `colour`, the icon is drawn in it
    /// (symbolic icons, see `SymbolicRecolor`).
    ///
    /// The stamp is returned even on failure when the file could be opened,
    /// so that a bad file can be remembered and not decoded again.
    static func load(path: String, box: Int, colour: RGBA? = nil) -> (Result<ScaledIcon, IconError>, FileStamp?) {
        // O_NONBLOCK: opening a FIFO with no writer must not hang the loop;
        // it is then rejected as not a regular file.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return (.failure(.unreadable(errno: errno)), nil) }
        defer { close(fd) }

        var info = stat()
        guard fstat(fd, &info) == 0 else { return (.failure(.unreadable(errno: errno)), nil) }
        let stamp = FileStamp(info)
        guard info.st_mode & S_IFMT == S_IFREG else { return (.failure(.notARegularFile), stamp) }
        let icon = IconDecoder.decode(fd, size: Int64(info.st_size), box: box)
        guard let colour else { return (icon, stamp) }
        return (icon.flatMap { SymbolicRecolor.recolored($0, colour) }, stamp)
    }

    /// Decodes the PNG open at `fd` (at its start), checking its size in
    /// the header first.
    static func decodePNG(_ fd: Int32, box: Int) -> Result<ScaledIcon, IconError> {
        switch readSize(fd) {
        case nil:
            // The signature matched when the format was sniffed.
            return .failure(.decodeFailed(CAIRO_STATUS_READ_ERROR))
        case let (width, height)? where width > maxDimension || height > maxDimension:
            return .failure(.tooLarge(width: width, height: height))
        default:
            break
        }
        guard lseek(fd, 0, SEEK_SET) == 0 else { return .failure(.unreadable(errno: errno)) }

        var source = fd
        let image = withUnsafeMutablePointer(to: &source) {
            cairo_image_surface_create_from_png_stream(readChunk, $0)
        }!
        let status = cairo_surface_status(image)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(image)
            return .failure(.decodeFailed(status))
        }
        return ScaledIcon.fitting(image, box: box)
    }

    /// Width and height from the IHDR chunk, which the PNG format requires
    /// to come first, right after the 8-byte signature; nil if absent.
    private static func readSize(_ fd: Int32) -> (Int, Int)? {
        var header = [UInt8](repeating: 0, count: 24)
        let count = header.withUnsafeMutableBytes { readFully(fd, $0.baseAddress!, $0.count) }
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        let ihdr: [UInt8] = [0x49, 0x48, 0x44, 0x52]
        guard count == header.count,
              header[0..<8].elementsEqual(signature),
              header[12..<16].elementsEqual(ihdr) else { return nil }
        func bigEndian32(_ at: Int) -> Int {
            header[at..<at + 4].reduce(0) { $0 << 8 | Int($1) }
        }
        return (bigEndian32(16), bigEndian32(20))
    }

    /// The whole file open at `fd`, `size` bytes as `fstat` reported
    /// (already checked against the format's cap). A file that grew since
    /// is cut there; one that shrank comes back short and fails to decode.
    static func readAll(_ fd: Int32, size: Int64) -> [UInt8] {
        let length = Int(size)
        var bytes = [UInt8](repeating: 0, count: length)
        let count = bytes.withUnsafeMutableBytes { length == 0 ? 0 : readFully(fd, $0.baseAddress!, length) }
        bytes.removeSubrange(count...)
        return bytes
    }

    /// Reads until `count` bytes or end of file; returns how many were read.
    static func readFully(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
        var done = 0
        while done < count {
            let got = read(fd, buffer + done, count - done)
            if got > 0 {
                done += got
            } else if got < 0 && errno == EINTR {
                continue
            } else {
                break
            }
        }
        return done
    }

    /// `cairo_read_func_t`: the closure points at the file descriptor.
    private static let readChunk: cairo_read_func_t = { closure, data, length in
        guard let closure, let data else { return CAIRO_STATUS_READ_ERROR }
        let fd = closure.load(as: Int32.self)
        let got = readFully(fd, data, Int(length))
        return got == Int(length) ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_READ_ERROR
    }
}
