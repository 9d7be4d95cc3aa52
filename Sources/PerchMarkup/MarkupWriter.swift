import PerchCore

/// Reads a body's bytes once, front to back, and writes the markup
/// `BodyMarkup.pangoMarkup` returns (the rules are there). Tags and
/// entities are ASCII, so the body is read as UTF-8 bytes and every other
/// byte is copied as it is: no UTF-8 sequence is split.
struct MarkupWriter {
    private struct Element {
        var name: [UInt8]
        var attributes: [UInt8]
        var start: Int
        var end: Int
    }

    private let bytes: [UInt8]
    private var tags: BodyTags
    private(set) var out: [UInt8] = []
    /// The kept tags open now, outermost first, each with the attributes
    /// it was written with (to open it again after a misnested close) and
    /// where in `out` its start tag begins and ends.
    private var open: [Element] = []
    /// Bytes the closing tags of `open` will take.
    private var closing = 0
    private var index = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        tags = BodyTags(bytes)
        out.reserveCapacity(bytes.count + 16)
    }

    mutating func run() {
        while index < bytes.count {
            switch bytes[index] {
            case lessThan:
                if let end = tag(at: index) {
                    index = end
                } else {
                    out += "&lt;".utf8
                    index += 1
                }
            case ampersand:
                let (text, end) = reference(at: index)
                out += text
                index = end
            case greaterThan:
                out += "&gt;".utf8
                index += 1
            case 0:
                // Pango reads a C string: a NUL would end the body there.
                index += 1
            default:
                // Typed: Swift 6.0.3 (Debian 13's) infers `Int?` for this
                // `?? bytes.count` and then rejects the slice below.
                let end: Int = bytes[index...].firstIndex(where: { $0 == lessThan || $0 == ampersand
                    || $0 == greaterThan || $0 == 0 }) ?? bytes.count
                out += bytes[index..<end]
                index = end
            }
        }
        for element in open.reversed() { writeClose(element) }
        open.removeAll()
    }

    // MARK: Tags

    /// Reads the tag at the `<` at `start` (`BodyTags` says what is one),
    /// writes what it stands for, and returns the index past it; nil when
    /// the `<` is text.
    private mutating func tag(at start: Int) -> Int? {
        guard let tag = tags.tag(at: start) else { return nil }
        let name = Array(tag.name.utf8)
        switch tag.kind {
        case .comment:
            break
        case .end:
            writeEnd(name)
        case .start:
            let attributes = tag.attributes.map { (name: Array(bytes[$0.name]), value: $0.value.map { decoded(bytes[$0]) }) }
            writeStart(name, attributes: attributes, selfClosing: tag.selfClosing)
        }
        return tag.end
    }

    /// What a start tag `name` writes: a kept tag and its attributes (for
    /// `span`), a line break for `br`, nothing for the rest.
    private mutating func writeStart(_ name: [UInt8], attributes: [(name: [UInt8], value: [UInt8]?)],
                                     selfClosing: Bool) {
        if name == Array("br".utf8) {
            out.append(UInt8(ascii: "\n"))
            return
        }
        guard let kept = Self.kept(name), !selfClosing, open.count < BodyMarkup.maximumDepth else { return }
        var written: [UInt8] = []
        if kept == Array("span".utf8) {
            var seen: [[UInt8]] = []
            for attribute in attributes {
                let attributeName = attribute.name.lowered
                // An attribute without a value, a name XML would not take,
                // or the same name twice would make Pango reject the body.
                guard let value = attribute.value, isXMLName(attributeName), !seen.contains(attributeName)
                else { continue }
                seen.append(attributeName)
                written.append(space)
                written += attributeName
                written += "=\"".utf8
                for byte in value { appendEscaped(byte, inAttribute: true, into: &written) }
                written.append(quote)
            }
        }
        writeOpen(kept, attributes: written)
    }

    /// A closing tag: closes the innermost open tag of that name, with the
    /// ones opened inside it, and opens those again.
    private mutating func writeEnd(_ name: [UInt8]) {
        guard let kept = Self.kept(name), let position = open.lastIndex(where: { $0.name == kept }) else { return }
        let inside = open[(position + 1)...]
        for element in open[position...].reversed() { writeClose(element) }
        open.removeSubrange(position...)
        for element in inside {
            // Opening again is cosmetic: skipped rather than let the output
            // pass its bound (the rest of the body may still grow 6 times).
            let cost = element.name.count + element.attributes.count + 2 + element.name.count + 3
            guard out.count + cost + closing + 6 * (bytes.count - index) <= BodyMarkup.outputLimit(forBytes: bytes.count)
            else { break }
            writeOpen(element.name, attributes: element.attributes)
        }
    }

    private mutating func writeOpen(_ name: [UInt8], attributes: [UInt8]) {
        let start = out.count
        out.append(lessThan)
        out += name
        out += attributes
        out.append(greaterThan)
        open.append(Element(name: name, attributes: attributes, start: start, end: out.count))
        closing += name.count + 3
    }

    /// Closes `element`, the innermost open one; an element with nothing
    /// in it (one opened again just before the end, `<b></b>`) is taken
    /// out instead.
    private mutating func writeClose(_ element: Element) {
        closing -= element.name.count + 3
        if out.count == element.end {
            out.removeSubrange(element.start...)
            return
        }
        out += "</".utf8
        out += element.name
        out.append(greaterThan)
    }

    /// The Pango tag an HTML tag is kept as; nil for those taken out.
    private static func kept(_ name: [UInt8]) -> [UInt8]? {
        switch String(decoding: name, as: UTF8.self) {
        case "b", "strong": Array("b".utf8)
        case "i", "em": Array("i".utf8)
        case "u", "ins": Array("u".utf8)
        case "s", "strike", "del": Array("s".utf8)
        case "tt", "code", "kbd", "samp": Array("tt".utf8)
        case "sub", "sup", "small", "big", "span": name
        default: nil
        }
    }

    // MARK: Character references

    /// Reads the `&` at `start` and what follows: what it stands for
    /// (escaped) and the index past it.
    private func reference(at start: Int) -> ([UInt8], Int) {
        var text: [UInt8] = []
        guard let (scalar, end) = readReference(at: start) else {
            appendEscaped(ampersand, inAttribute: false, into: &text)
            return (text, start + 1)
        }
        if let scalar {
            for byte in String(Character(scalar)).utf8 { appendEscaped(byte, inAttribute: false, into: &text) }
        }
        return (text, end)
    }

    /// The character of the reference at `start` (nil inside: a reference
    /// that is dropped) and the index past its `;`; nil when it is no
    /// reference (the `&` is text).
    private func readReference(at start: Int) -> (Unicode.Scalar?, Int)? {
        var at = start + 1
        if at < bytes.count, bytes[at] == UInt8(ascii: "#") {
            at += 1
            let hex = at < bytes.count && bytes[at] | 0x20 == UInt8(ascii: "x")
            if hex { at += 1 }
            let digitsStart = at
            var value: UInt32 = 0
            while at < bytes.count, let digit = digitValue(bytes[at], hex: hex) {
                // Past U+10FFFF it is invalid however long it goes on; stop counting there.
                value = min(value * (hex ? 16 : 10) + digit, 0x110000)
                at += 1
            }
            guard at > digitsStart, at < bytes.count, bytes[at] == UInt8(ascii: ";") else { return nil }
            return (HTMLEntities.scalar(forReference: value), at + 1)
        }
        let nameStart = at
        while at < bytes.count, at - nameStart <= HTMLEntities.longestName, isLetterOrDigit(bytes[at]) { at += 1 }
        guard at > nameStart, at < bytes.count, bytes[at] == UInt8(ascii: ";"),
              let scalar = HTMLEntities.scalar(named: Substring(decoding: bytes[nameStart..<at], as: UTF8.self))
        else { return nil }
        return (scalar, at + 1)
    }

    /// An attribute's value with its references read (not yet escaped).
    private func decoded(_ value: ArraySlice<UInt8>) -> [UInt8] {
        guard value.contains(ampersand) || value.contains(0) else { return Array(value) }
        let inner = MarkupWriter(Array(value))
        var out: [UInt8] = []
        var at = 0
        while at < inner.bytes.count {
            let byte = inner.bytes[at]
            if byte == ampersand, let (scalar, end) = inner.readReference(at: at) {
                if let scalar { out += String(Character(scalar)).utf8 }
                at = end
            } else {
                if byte != 0 { out.append(byte) }
                at += 1
            }
        }
        return out
    }

    private func appendEscaped(_ byte: UInt8, inAttribute: Bool, into buffer: inout [UInt8]) {
        switch byte {
        case ampersand: buffer += "&amp;".utf8
        case lessThan: buffer += "&lt;".utf8
        case greaterThan: buffer += "&gt;".utf8
        case quote where inAttribute: buffer += "&quot;".utf8
        case 0: break
        default: buffer.append(byte)
        }
    }
}

private func isLetter(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
}

private func isLetterOrDigit(_ byte: UInt8) -> Bool {
    isLetter(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
}

/// Letters, digits and `-_.:`: a tag's name (custom elements and
/// namespaced names included).
private func isNameByte(_ byte: UInt8) -> Bool {
    isLetterOrDigit(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
        || byte == UInt8(ascii: ".") || byte == UInt8(ascii: ":")
}

/// A name XML takes for an attribute: a letter or `_`, then letters,
/// digits and `-_.:` (ASCII only: Pango's attributes are all ASCII).
private func isXMLName(_ name: [UInt8]) -> Bool {
    guard let first = name.first, isLetter(first) || first == UInt8(ascii: "_") else { return false }
    return name.allSatisfy(isNameByte)
}

private func digitValue(_ byte: UInt8, hex: Bool) -> UInt32? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f") where hex: UInt32(byte - UInt8(ascii: "a") + 10)
    case UInt8(ascii: "A")...UInt8(ascii: "F") where hex: UInt32(byte - UInt8(ascii: "A") + 10)
    default: nil
    }
}
