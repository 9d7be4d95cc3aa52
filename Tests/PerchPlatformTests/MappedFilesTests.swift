import Glibc
import Testing
@testable import PerchPlatform

/// Whether the page at `address` is in this process's page tables
/// (/proc/self/pagemap's present bit), and whether it is a page of a file
/// rather than a private copy.
private func pageState(_ address: UnsafeRawPointer) -> (present: Bool, file: Bool) {
    let fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC)
    precondition(fd >= 0, "no /proc/self/pagemap")
    defer { close(fd) }
    var entry: UInt64 = 0
    let page = UInt(sysconf(Int32(_SC_PAGESIZE)))
    let offset = off_t(UInt(bitPattern: address) / page) * 8
    precondition(pread(fd, &entry, 8, offset) == 8)
    return (entry & (1 << 63) != 0, entry & (1 << 61) != 0)
}

/// A file of `pages` pages, page `n` filled with the byte `n + 1`.
private func pageFile(in directory: TemporaryDirectory, pages: Int) -> (fd: Int32, size: Int) {
    let size = pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    let fd = open("\(directory.path)/pages", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    precondition(fd >= 0)
    var bytes = [UInt8](repeating: 0, count: size)
    for index in bytes.indices { bytes[index] = UInt8(index / (size / pages) + 1) }
    precondition(write(fd, bytes, size) == size)
    return (fd, size)
}

// Serialized: `MappedFiles.releaseUnused` gives back every read-only file
// mapping of the process, so one test's release, run beside another's
// read-back, took that test's pages again between its read and its check
// (a clean-clone run failed so, once, when new suites changed the timing).
@Suite("Mapped files given back", .serialized)
struct MappedFilesTests {
    @Test("the pages of a read-only file mapping leave the page tables and come back with the file's bytes")
    func readOnlyMappingGoesBack() throws {
        let directory = TemporaryDirectory("mapped-files")
        let (fd, size) = pageFile(in: directory, pages: 4)
        defer { close(fd) }
        let mapping = try #require(mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0))
        #expect(mapping != MAP_FAILED)
        defer { munmap(mapping, size) }
        let bytes = mapping.assumingMemoryBound(to: UInt8.self)
        let page = size / 4
        #expect(bytes[0] == 1 && bytes[3 * page] == 4)
        #expect(pageState(mapping).present)

        let release = try MappedFiles.releaseUnused()

        #expect(release.released > 0)
        #expect(release.failed == 0)
        #expect(!pageState(mapping).present)
        #expect(!pageState(mapping + 3 * page).present)
        // Read again: the file's bytes, from the page cache.
        // A closure of its own, typed: inside #expect, Swift 6.0.3 (Debian
        // 13's) gives up type-checking it ("unable to type-check this
        // expression in reasonable time").
        let eachPageReadBack = (0..<4).allSatisfy { (index: Int) -> Bool in
            let value = UInt8(index + 1)
            return bytes[index * page] == value && bytes[index * page + page - 1] == value
        }
        #expect(eachPageReadBack)
        let readBack = pageState(mapping)
        #expect(readBack.present && readBack.file)
    }

    @Test("a read-only mapping that holds a private copy of a page (a relocated RELRO) keeps it, and all its pages")
    func privateCopyIsKept() throws {
        let directory = TemporaryDirectory("mapped-files")
        let (fd, size) = pageFile(in: directory, pages: 4)
        defer { close(fd) }
        let mapping = try #require(mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0))
        #expect(mapping != MAP_FAILED)
        defer { munmap(mapping, size) }
        let bytes = mapping.assumingMemoryBound(to: UInt8.self)
        let page = size / 4
        // What the dynamic linker does to RELRO: write, then make it read-only.
        bytes[page + 7] = 0xEE
        #expect(bytes[2 * page] == 3)
        #expect(mprotect(mapping, size, PROT_READ) == 0)
        #expect(!pageState(mapping + page).file)

        let release = try MappedFiles.releaseUnused()

        #expect(release.kept > 0)
        #expect(bytes[page + 7] == 0xEE)
        #expect(pageState(mapping + page).present && !pageState(mapping + page).file)
        // The file's own pages of that mapping stay mapped too.
        #expect(pageState(mapping + 2 * page).present)
    }

    @Test("a writable mapping is never touched: what was written stays")
    func writableMappingIsLeft() throws {
        let directory = TemporaryDirectory("mapped-files")
        let (fd, size) = pageFile(in: directory, pages: 2)
        defer { close(fd) }
        let shared = try #require(mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0))
        let copied = try #require(mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0))
        #expect(shared != MAP_FAILED && copied != MAP_FAILED)
        defer {
            munmap(shared, size)
            munmap(copied, size)
        }
        copied.storeBytes(of: 0x5A, as: UInt8.self)
        _ = shared.load(as: UInt8.self)

        _ = try MappedFiles.releaseUnused()

        #expect(copied.load(as: UInt8.self) == 0x5A)
        #expect(pageState(copied).present && pageState(shared).present)
    }
}
