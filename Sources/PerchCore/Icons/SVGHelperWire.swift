/// The frames the daemon and its warm SVG helper (`perch-svg --serve`)
/// exchange, one per SOCK_SEQPACKET message; the C side is
/// `Sources/CRsvg/include/perch-svg-protocol.h`, which has the same table.
/// Four 32-bit little-endian words, whatever the machine:
///
/// | frame | words | with it |
/// |---|---|---|
/// | request | `SVGQ` ticket box length | the document, in a memfd of `length` bytes |
/// | image | `SVGI` ticket width height | the pixels, in a memfd of width × height × 4 bytes |
/// | error | `SVGE` ticket length 0 | `length` (≤ 255) bytes of message, in the frame |
/// | goodbye | `SVGB` 0 0 0 | nothing: the helper leaves, a request not answered goes to the next |
///
/// What the helper sends is read as untrusted input: a frame that is not
/// one of these, cut short, too long, or without the memfd it needs is a
/// `BadAnswer`, never a crash (the helper renders hostile documents, and
/// one that got the better of it may say anything).
public enum SVGHelperWire {
    public static let frameBytes = 16
    public static let maxMessageBytes = 255
    /// Largest box the helper renders (`PERCH_SVG_MAX_BOX`), pixels.
    public static let maxBox = 1024

    static let request: UInt32 = 0x5147_5653  // "SVGQ"
    static let image: UInt32 = 0x4947_5653    // "SVGI"
    static let error: UInt32 = 0x4547_5653    // "SVGE"
    static let goodbye: UInt32 = 0x4247_5653  // "SVGB"

    /// What one frame from the helper says.
    public enum Answer: Equatable, Sendable {
        /// The pixels of `ticket` are in the memfd that came with it.
        case image(ticket: UInt32, width: Int, height: Int)
        /// `ticket` could not be rendered: librsvg's reason, or the helper's.
        case failed(ticket: UInt32, message: String)
        /// The helper is leaving and reads no more requests.
        case goodbye
    }

    /// Why a frame from the helper cannot be taken.
    public enum BadAnswer: Error, Equatable, Sendable, CustomStringConvertible {
        case length(Int)
        case unknownKind(UInt32)
        case imageSize(width: Int, height: Int)
        case missingPixels
        case messageLength(Int)

        public var description: String {
            switch self {
            case .length(let count): "a frame of \(count) bytes"
            case .unknownKind(let word): "a frame of unknown kind \(String(word, radix: 16))"
            case .imageSize(let width, let height): "an image of \(width)×\(height) px"
            case .missingPixels: "an image without its pixels"
            case .messageLength(let count): "an error whose message is said to be \(count) bytes"
            }
        }
    }

    /// The request frame for `ticket`: its document (`length` bytes) goes
    /// with it in a memfd, fitted to a `box`-pixel square.
    public static func encodeRequest(ticket: UInt32, box: Int, length: Int) -> [UInt8] {
        var frame: [UInt8] = []
        frame.reserveCapacity(frameBytes)
        for word in [request, ticket, UInt32(clamping: box), UInt32(clamping: length)] {
            append(word, to: &frame)
        }
        return frame
    }

    /// Reads one frame from the helper; `hasDescriptor` says a descriptor
    /// came with it. An image must fit a `box`-pixel square (`box` the size
    /// its request asked for), so that what the daemon then reads is
    /// bounded by what it asked.
    public static func decodeAnswer(_ frame: [UInt8], hasDescriptor: Bool, box: Int) -> Result<Answer, BadAnswer> {
        guard frame.count >= frameBytes else { return .failure(.length(frame.count)) }
        let kind = word(frame, 0), ticket = word(frame, 1)
        let first = Int(word(frame, 2)), second = Int(word(frame, 3))
        switch kind {
        case image:
            guard frame.count == frameBytes else { return .failure(.length(frame.count)) }
            guard first >= 1, second >= 1, first <= min(box, maxBox), second <= min(box, maxBox) else {
                return .failure(.imageSize(width: first, height: second))
            }
            guard hasDescriptor else { return .failure(.missingPixels) }
            return .success(.image(ticket: ticket, width: first, height: second))
        case error:
            guard first <= maxMessageBytes else { return .failure(.messageLength(first)) }
            guard frame.count == frameBytes + first else { return .failure(.length(frame.count)) }
            let text = String(decoding: frame[frameBytes...], as: UTF8.self)
            // Shown in the log: no control characters from the helper.
            let message = String(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? " " : Character($0) })
            return .success(.failed(ticket: ticket, message: message))
        case goodbye:
            guard frame.count == frameBytes else { return .failure(.length(frame.count)) }
            return .success(.goodbye)
        default:
            return .failure(.unknownKind(kind))
        }
    }

    /// The pixel words of an image answer's memfd (`width` × `height` × 4
    /// bytes, little-endian), as Cairo's native ARGB32 words.
    public static func pixels(_ bytes: [UInt8], width: Int, height: Int) -> [UInt32]? {
        guard bytes.count == width * height * 4 else { return nil }
        var words = [UInt32](repeating: 0, count: width * height)
        for index in words.indices { words[index] = word(bytes, index) }
        return words
    }

    private static func append(_ word: UInt32, to bytes: inout [UInt8]) {
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: word >> UInt32(shift))) }
    }

    private static func word(_ bytes: [UInt8], _ index: Int) -> UInt32 {
        let at = index * 4
        return UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
    }
}
