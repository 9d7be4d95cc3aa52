import Glibc
import PerchCore

/// The real disk behind icon decoding (`IconFileReader`), as
/// `IconDirectories` is behind icon lookup: an icon file is opened by
/// `RegularFile`, under its one policy (O_NONBLOCK, so a FIFO with no
/// writer cannot hang the loop; FIFOs, devices and directories refused by
/// `fstat` before any read; symbolic links followed, as themes link icons
/// to one another), and never read past the size it had when opened.
/// How much of that may be read (a format's cap) is the decoder's to say,
/// from the size, before it reads more than the first bytes.
public final class IconFiles: IconFileReader, Sendable {
    public init() {}

    public func open(_ path: String) -> Result<any OpenedIconFile, IconFileRefusal> {
        var info = stat()
        do {
            guard let fd = try RegularFile.open(path, followingSymlinks: true, info: &info) else {
                return .failure(.missing)
            }
            return .success(OpenedFile(fd, info: info, path: path))
        } catch {
            // What it is, when it is there but not a regular file; else why it cannot be opened.
            if stat(path, &info) == 0, let kind = RegularFile.kindName(info.st_mode) {
                return .failure(.refused("\(kind), not a regular file"))
            }
            return .failure(.refused(error.problem))
        }
    }

    public func stamp(of path: String) -> IconFileStamp? {
        DiskStamp(path)?.iconFileStamp
    }

    private final class OpenedFile: OpenedIconFile {
        private let fd: FileDescriptor
        private let path: String
        let size: Int
        let stamp: IconFileStamp
        private var left: Int

        init(_ fd: consuming FileDescriptor, info: stat, path: String) {
            self.fd = fd
            self.path = path
            size = Int(info.st_size)
            stamp = DiskStamp(info).iconFileStamp
            left = size
        }

        func read(upTo count: Int) -> [UInt8] {
            let bytes = (try? RegularFile.readSome(fd, upTo: min(count, left), path: path)) ?? []
            left -= bytes.count
            return bytes
        }
    }
}

extension DiskStamp {
    var iconFileStamp: IconFileStamp {
        IconFileStamp(device: device, inode: inode, size: size,
                      modified: (Int(modified.tv_sec), Int(modified.tv_nsec)),
                      changed: (Int(changed.tv_sec), Int(changed.tv_nsec)))
    }
}
