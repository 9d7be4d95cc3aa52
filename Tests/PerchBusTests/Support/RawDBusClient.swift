import Glibc

/// D-Bus marshalling (little-endian) written out by hand, so a test can
/// send what no D-Bus library would: strings that are not UTF-8, or a body
/// too big for a command line. Only what the tests need.
struct WireWriter {
    var bytes: [UInt8] = []

    mutating func align(_ boundary: Int) {
        while bytes.count % boundary != 0 { bytes.append(0) }
    }

    mutating func byte(_ value: UInt8) { bytes.append(value) }

    mutating func uint32(_ value: UInt32) {
        align(4)
        withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
    }

    mutating func int32(_ value: Int32) { uint32(UInt32(bitPattern: value)) }

    /// 's' or 'o': raw bytes, so invalid UTF-8 can be sent.
    mutating func string(_ raw: [UInt8]) {
        uint32(UInt32(raw.count))
        bytes += raw
        bytes.append(0)
    }

    mutating func string(_ text: String) { string(Array(text.utf8)) }

    mutating func signature(_ text: String) {
        bytes.append(UInt8(text.utf8.count))
        bytes += text.utf8
        bytes.append(0)
    }

    /// An array: its length, padding to the element alignment, elements.
    mutating func array(elementAlignment: Int, _ body: (inout WireWriter) -> Void) {
        uint32(0)
        let lengthAt = bytes.count - 4
        align(elementAlignment)
        let start = bytes.count
        body(&self)
        let length = UInt32(bytes.count - start).littleEndian
        withUnsafeBytes(of: length) { bytes.replaceSubrange(lengthAt..<lengthAt + 4, with: $0) }
    }
}

/// One method call: header and body. `expectingReply: false` sets the
/// NO_REPLY_EXPECTED flag.
func methodCall(serial: UInt32, destination: String?, path: String, interface: String, member: String,
                signature: String, body: [UInt8], expectingReply: Bool = true) -> [UInt8] {
    var header = WireWriter()
    header.byte(UInt8(ascii: "l"))
    header.byte(1)  // METHOD_CALL
    header.byte(expectingReply ? 0 : 1)
    header.byte(1)  // protocol version
    header.uint32(UInt32(body.count))
    header.uint32(serial)
    header.array(elementAlignment: 8) { fields in
        func field(_ code: UInt8, _ type: String, _ value: (inout WireWriter) -> Void) {
            fields.align(8)
            fields.byte(code)
            fields.signature(type)
            value(&fields)
        }
        field(1, "o") { $0.string(path) }
        field(2, "s") { $0.string(interface) }
        field(3, "s") { $0.string(member) }
        if let destination { field(6, "s") { $0.string(destination) } }
        if !signature.isEmpty { field(8, "g") { $0.signature(signature) } }
    }
    header.align(8)
    return header.bytes + body
}

/// A Notify body (`susssasa{sv}i`), every string given as raw bytes; hints
/// have string values.
func notifyBody(appName: [UInt8] = Array("raw-client".utf8), appIcon: [UInt8] = [], summary: [UInt8],
                body: [UInt8], actions: [[UInt8]] = [], hints: [(key: [UInt8], value: [UInt8])] = []) -> [UInt8] {
    var writer = WireWriter()
    writer.string(appName)
    writer.uint32(0)
    writer.string(appIcon)
    writer.string(summary)
    writer.string(body)
    writer.array(elementAlignment: 4) { for action in actions { $0.string(action) } }
    writer.array(elementAlignment: 8) { entries in
        for (key, value) in hints {
            entries.align(8)
            entries.string(key)
            entries.signature("s")
            entries.string(value)
        }
    }
    writer.int32(-1)
    return writer.bytes
}

/// A call to the bus driver that changes nothing (GetId). The bus handles
/// a connection's messages in order, so once its reply is back, every
/// call sent before it has been routed to the connection it was for.
func busBarrier(serial: UInt32) -> [UInt8] {
    methodCall(serial: serial, destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
               interface: "org.freedesktop.DBus", member: "GetId", signature: "", body: [])
}

/// A message received, as far as the tests look at it.
struct WireMessage {
    /// 2 method return, 3 error, 4 signal.
    var type: UInt8
    var isError: Bool { type == 3 }
    var isSignal: Bool { type == 4 }
    /// A signal's name.
    var member: String?
    var replySerial: UInt32?
    var errorName: String?
    /// The unique name of the connection that sent it (on a bus).
    var sender: String?
    /// The first body value when it is a `u`.
    var uint32: UInt32?
    /// An error's message (its body's first string).
    var errorMessage: String?
}

/// A non-blocking D-Bus client on one socket. The server under test runs
/// on the same thread, so nothing here may block: `service()` moves what
/// it can in both directions and the test turns the loop in between.
final class RawDBusClient {
    private(set) var fd: Int32
    private var outbox: [UInt8] = []
    private var inbox: [UInt8] = []
    private var authenticated = false
    private(set) var closed = false
    /// Every reply and signal, in the order they arrived.
    private(set) var received: [WireMessage] = []
    var replies: [WireMessage] { received.filter { !$0.isSignal } }

    /// A client on an already connected socket (one end of a socketpair).
    init(socket: Int32) {
        fd = socket
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        // EXTERNAL authentication as our uid, pipelined with BEGIN.
        let uid = Array(String(getuid()).utf8).map { String($0, radix: 16) }.joined()
        outbox = [0] + Array("AUTH EXTERNAL \(uid)\r\nBEGIN\r\n".utf8)
    }

    /// A client of the bus daemon listening at `path`; sends Hello.
    convenience init(connectingTo path: String) throws {
        let socket = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        if connected != 0 { throw TestFailure("connect \(path): \(errno)") }
        self.init(socket: socket)
        send(methodCall(serial: 1, destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                        interface: "org.freedesktop.DBus", member: "Hello", signature: "", body: []))
    }

    deinit { hangUp() }

    /// Closes the socket, as a client that exits does.
    func hangUp() {
        if fd >= 0 { close(fd) }
        fd = -1
        closed = true
    }

    func send(_ message: [UInt8]) { outbox += message }

    func reply(to serial: UInt32) -> WireMessage? { replies.first { $0.replySerial == serial } }

    /// Writes what the socket takes, reads what is there, parses replies.
    func service() {
        guard fd >= 0 else { return }
        while !outbox.isEmpty {
            let written = outbox.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written <= 0 { break }
            outbox.removeFirst(written)
        }
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count == 0 || (count < 0 && errno != EAGAIN && errno != EINTR) { closed = true }
            if count <= 0 { break }
            inbox += chunk[..<count]
        }
        parse()
    }

    private func parse() {
        if !authenticated {
            guard let end = inbox.firstIndex(of: UInt8(ascii: "\n")) else { return }
            let line = String(decoding: inbox[..<end], as: UTF8.self)
            guard line.hasPrefix("OK ") else {
                closed = true
                return
            }
            inbox.removeFirst(end + 1)
            authenticated = true
        }
        while inbox.count >= 16 {
            let bodyLength = Int(readUInt32(at: 4))
            let fieldsLength = Int(readUInt32(at: 12))
            let headerEnd = (16 + fieldsLength + 7) & ~7
            guard inbox.count >= headerEnd + bodyLength else { return }
            var reply = WireMessage(type: inbox[1])
            var offset = 16
            var signature = ""
            while offset < 16 + fieldsLength {
                offset = (offset + 7) & ~7
                let code = inbox[offset]
                let typeLength = Int(inbox[offset + 1])
                let type = String(decoding: inbox[(offset + 2)..<(offset + 2 + typeLength)], as: UTF8.self)
                offset += 3 + typeLength
                switch type {
                case "u":
                    offset = (offset + 3) & ~3
                    if code == 5 { reply.replySerial = readUInt32(at: offset) }
                    offset += 4
                case "s", "o":
                    offset = (offset + 3) & ~3
                    let length = Int(readUInt32(at: offset))
                    let text = String(decoding: inbox[(offset + 4)..<(offset + 4 + length)], as: UTF8.self)
                    if code == 4 { reply.errorName = text }
                    if code == 7 { reply.sender = text }
                    if code == 3 { reply.member = text }
                    offset += 4 + length + 1
                case "g":
                    let length = Int(inbox[offset])
                    signature = String(decoding: inbox[(offset + 1)..<(offset + 1 + length)], as: UTF8.self)
                    offset += 1 + length + 1
                default:
                    offset = 16 + fieldsLength  // not needed by the tests
                }
            }
            if signature.hasPrefix("u") && bodyLength >= 4 { reply.uint32 = readUInt32(at: headerEnd) }
            if signature.hasPrefix("s") && bodyLength >= 4 {
                let length = Int(readUInt32(at: headerEnd))
                reply.errorMessage = String(decoding: inbox[(headerEnd + 4)..<(headerEnd + 4 + length)], as: UTF8.self)
            }
            if (2...4).contains(inbox[1]) { received.append(reply) }
            inbox.removeFirst(headerEnd + bodyLength)
        }
    }

    private func readUInt32(at offset: Int) -> UInt32 {
        UInt32(inbox[offset]) | UInt32(inbox[offset + 1]) << 8 | UInt32(inbox[offset + 2]) << 16
            | UInt32(inbox[offset + 3]) << 24
    }
}
