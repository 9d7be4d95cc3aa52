import Foundation
import Glibc
import Testing
@testable import PerchPlatform

/// A memfd name no other test uses, so /proc tells its descriptors apart
/// from any other test's, whatever numbers the kernel hands out meanwhile.
private func uniqueName(_ label: String) -> String {
    "perch-test-\(label)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
}

/// Whether descriptor `fd` is (still) a memfd called `name`.
private func isMemfd(_ fd: Int32, named name: String) -> Bool {
    let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(fd)")
    return target?.hasPrefix("/memfd:\(name)") == true
}

@Suite("Mapped memory")
struct MappedMemoryTests {
    @Test("shared memory starts zeroed, and what is written shows in the file handed over")
    func sharedMemoryIsShared() throws {
        let name = uniqueName("shared")
        var memory = try SharedMemory(name: name, byteCount: 8192)
        let bytes = memory.base.assumingMemoryBound(to: UInt8.self)
        #expect((0..<8192).allSatisfy { bytes[$0] == 0 })
        bytes[0] = 0x11
        bytes[8191] = 0x22

        // What the compositor would do with the descriptor: map it itself.
        var lent: Int32 = -1
        let peer = try memory.lendFileDescriptor { fd -> UnsafeMutableRawPointer in
            lent = fd
            #expect(isMemfd(fd, named: name))
            var status = stat()
            #expect(fstat(fd, &status) == 0 && status.st_size == 8192)
            return mmap(nil, 8192, PROT_READ, MAP_SHARED, fd, 0)
        }
        #expect(peer != MAP_FAILED)
        defer { munmap(peer, 8192) }
        let seen = peer.assumingMemoryBound(to: UInt8.self)
        #expect(seen[0] == 0x11 && seen[8191] == 0x22)
        // Lent once, then closed; the memory lives on in both mappings.
        #expect(!isMemfd(lent, named: name))
        bytes[4096] = 0x33
        #expect(seen[4096] == 0x33)
    }

    @Test("shared memory too large to map fails naming mmap")
    func sharedMemoryTooLarge() {
        do {
            _ = try SharedMemory(name: uniqueName("huge"), byteCount: Int.max)
            Issue.record("\(Int.max) bytes were mapped")
        } catch {
            #expect(error.operation == "mmap")
            #expect(error.code == ENOMEM)
        }
    }

    @Test("a read-only mapping shows the file's bytes and closes the descriptor at once")
    func readOnlyMapping() throws {
        let name = uniqueName("keymap")
        let text = Array("xkb_keymap { };\0".utf8)
        var source = try SharedMemory(name: name, byteCount: text.count)
        source.base.copyMemory(from: text, byteCount: text.count)
        // As a keymap arrives: a descriptor of our own for the same file.
        let received = source.lendFileDescriptor { fcntl($0, F_DUPFD_CLOEXEC, 0) }
        #expect(isMemfd(received, named: name))

        let mapping = try ReadOnlyMapping(adopting: FileDescriptor(adopting: received), byteCount: text.count)
        #expect(!isMemfd(received, named: name))
        #expect(mapping.byteCount == text.count)
        #expect(Array(UnsafeRawBufferPointer(start: mapping.base, count: mapping.byteCount)) == text)
    }

    @Test("mapping nothing fails naming mmap and still closes the descriptor")
    func readOnlyMappingOfNothing() throws {
        let name = uniqueName("empty")
        var source = try SharedMemory(name: name, byteCount: 16)
        let received = source.lendFileDescriptor { fcntl($0, F_DUPFD_CLOEXEC, 0) }
        do {
            _ = try ReadOnlyMapping(adopting: FileDescriptor(adopting: received), byteCount: 0)
            Issue.record("an empty mapping was made")
        } catch {
            #expect(error == SystemError("mmap", code: EINVAL))
        }
        #expect(!isMemfd(received, named: name))
    }

    @Test("a descriptor that cannot be mapped fails naming mmap and is closed")
    func readOnlyMappingOfASocket() throws {
        var ends: [Int32] = [-1, -1]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0, &ends) == 0)
        defer { close(ends[1]) }
        do {
            _ = try ReadOnlyMapping(adopting: FileDescriptor(adopting: ends[0]), byteCount: 64)
            Issue.record("a socket was mapped")
        } catch {
            #expect(error.operation == "mmap")
            #expect(error.code == ENODEV)
        }
        // The mapped end is closed: the other end reads end-of-file (it
        // would read EAGAIN while the first were open).
        var byte: UInt8 = 0
        #expect(read(ends[1], &byte, 1) == 0)
    }
}
