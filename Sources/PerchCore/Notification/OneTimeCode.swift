/// The one-time code in a notification's text, for `perchctl copy --code`,
/// the toasts' `o` key and the center's "Copy code": the letters and
/// digits a sign-in, a bank or a messenger asks the user to type, found
/// next to a word that names them ("code", "OTP", "PIN", "passcode",
/// "verification", "one-time", "TAN", and the same in a few languages:
/// código, Kode, kod, koodi, код, 验证码, コード, 인증번호…).
///
/// The rule, in order:
/// - A *keyword* is one of those words. "code" counts inside a longer
///   word too (passcode, Bestätigungscode, verificatiecode), but not as an
///   error, exit, status, zip, QR or bar code.
/// - A *candidate* is a run of ASCII letters and digits with 4 to 10 of
///   them, kept as the text shows it: two runs joined by one hyphen
///   (`123-456`, `G-123456`) or two equal groups of three or four digits
///   joined by one space (`123 456`) are one candidate; a chain of three
///   or more (a date, a card number) is none. A candidate has a digit
///   and no lowercase letter, unless it directly follows the keyword
///   ("code: XKPMQ", "code is k3j9x2": capitals alone, or lowercase
///   letters with a digit, since "code is ready" is no code). A candidate that is part of a
///   number, an amount, an address or a reference (`#1234`, `$1234`,
///   `12.5`, `50%`, `a/1234`, `1234@`, `abc123.com`) is none.
/// - A candidate counts after a keyword within 80 characters, or before
///   one with a linking word between ("123456 is your code"); the nearest
///   wins, one after the keyword when two are as near (a candidate
///   before counts twice its distance), and then the first.
///
/// Linear in the text: one pass finds the keywords, one the candidates,
/// and each candidate looks at most 80 characters around it.
public enum OneTimeCode {
    /// Fewest and most letters and digits a code has.
    public static let shortest = 4
    public static let longest = 10
    /// Characters between a keyword and its code, at most.
    static let reach = 80

    /// The code in `text` (plain text, markup already out), as it is
    /// written there; nil when there is none.
    public static func find(in text: String) -> String? {
        let scalars = Array(text.unicodeScalars)
        guard scalars.count >= shortest else { return nil }
        let lower = scalars.map(lowered)
        let keywords = findKeywords(lower)
        guard !keywords.isEmpty else { return nil }
        var covered = [Bool](repeating: false, count: scalars.count)
        for keyword in keywords { for index in keyword { covered[index] = true } }
        var best: (score: Int, range: Range<Int>)?
        var next = 0  // the first keyword that starts at or after a candidate's end
        var previousEnd = -1  // the latest keyword end at or before a candidate's start
        var scanned = 0
        for candidate in candidates(scalars) {
            if candidate.contains(where: { covered[$0] }) { continue }
            while scanned < keywords.count, keywords[scanned].upperBound <= candidate.lowerBound {
                previousEnd = max(previousEnd, keywords[scanned].upperBound)
                scanned += 1
            }
            while next < keywords.count, keywords[next].lowerBound < candidate.upperBound { next += 1 }
            var score: Int?
            if previousEnd >= 0 {
                let gap = candidate.lowerBound - previousEnd
                if gap <= reach, isCodeLike(scalars[candidate])
                    || (mayFollowDirectly(scalars[candidate]) && isAdjacent(lower[previousEnd..<candidate.lowerBound])) {
                    score = gap
                }
            }
            if next < keywords.count, isCodeLike(scalars[candidate]) {
                let start = keywords[next].lowerBound
                let gap = start - candidate.upperBound
                if gap <= reach / 2, linksBack(lower[candidate.upperBound..<start]) {
                    score = min(score ?? .max, gap * 2)
                }
            }
            if let score, score < best?.score ?? .max { best = (score, candidate) }
        }
        guard let best else { return nil }
        var code = ""
        code.unicodeScalars.append(contentsOf: scalars[best.range])
        return code
    }

    // MARK: Keywords

    private enum Place {
        /// Neither a letter nor a digit on either side.
        case word
        /// Letters may come before (a compound), and after only one of
        /// `endings`.
        case compound(endings: [String])
        /// Anywhere (scripts without spaces between words).
        case anywhere
    }

    private struct Keyword {
        let scalars: [Unicode.Scalar]
        let place: Place
        init(_ text: String, _ place: Place) {
            scalars = Array(text.unicodeScalars)
            self.place = place
        }
    }

    private static let keywords: [Keyword] = [
        Keyword("code", .compound(endings: ["", "s"])),
        Keyword("código", .compound(endings: ["", "s"])),
        Keyword("codigo", .compound(endings: ["", "s"])),
        Keyword("codice", .compound(endings: [""])),
        Keyword("kode", .compound(endings: ["", "n", "t"])),
        Keyword("kod", .compound(endings: ["", "u", "en", "unuz"])),
        Keyword("kód", .compound(endings: ["", "ot"])),
        Keyword("koodi", .compound(endings: ["", "si", "t", "nne"])),
        Keyword("код", .compound(endings: ["", "а", "ом", "у"])),
        Keyword("otp", .word), Keyword("pin", .word), Keyword("tan", .word), Keyword("mtan", .word),
        Keyword("2fa", .word), Keyword("mfa", .word), Keyword("passcode", .word),
        Keyword("verification", .word), Keyword("one-time", .word), Keyword("one time", .word),
        Keyword("验证码", .anywhere), Keyword("校验码", .anywhere), Keyword("动态码", .anywhere),
        Keyword("驗證碼", .anywhere), Keyword("認證碼", .anywhere), Keyword("确认码", .anywhere),
        Keyword("コード", .anywhere), Keyword("認証番号", .anywhere), Keyword("인증번호", .anywhere),
        Keyword("코드", .anywhere),
    ]

    /// Keywords by their first scalar.
    private static let byFirst: [Unicode.Scalar: [Keyword]] =
        Dictionary(grouping: keywords, by: { $0.scalars[0] })

    /// Words before "code" that make it something else than a code to type.
    private static let notOneTime: Set<String> = [
        "de", "en", "re", "bar", "uni", "op", "geo", "zip", "qr", "source", "post", "postal", "area", "country",
        "error", "exit", "exited", "status", "return", "returned", "color", "colour", "morse", "machine", "byte",
        "pseudo", "dress", "sub", "trans",
    ]

    /// Where each keyword is in `lower`, sorted by start.
    private static func findKeywords(_ lower: [Unicode.Scalar]) -> [Range<Int>] {
        var found: [Range<Int>] = []
        for start in lower.indices {
            guard let choices = byFirst[lower[start]] else { continue }
            for keyword in choices {
                let end = start + keyword.scalars.count
                guard end <= lower.count, lower[start..<end].elementsEqual(keyword.scalars) else { continue }
                if matches(keyword.place, lower, start, end) { found.append(start..<end) }
            }
        }
        return found
    }

    private static func matches(_ place: Place, _ lower: [Unicode.Scalar], _ start: Int, _ end: Int) -> Bool {
        switch place {
        case .anywhere:
            return true
        case .word:
            return (start == 0 || !isWordScalar(lower[start - 1])) && (end == lower.count || !isWordScalar(lower[end]))
        case .compound(let endings):
            var after = end
            while after < lower.count, isWordScalar(lower[after]), after - end <= 5 { after += 1 }
            guard after == lower.count || !isWordScalar(lower[after]) else { return false }
            guard endings.contains(where: { lower[end..<after].elementsEqual($0.unicodeScalars) }) else { return false }
            // The word the keyword ends: its own letters before, or else
            // the word before it ("error code", "QR-code").
            var wordStart = start
            while wordStart > 0, isWordScalar(lower[wordStart - 1]) { wordStart -= 1 }
            if wordStart < start { return !notOneTime.contains(text(lower[wordStart..<start])) }
            let previous = word(before: start, in: lower)
            if previous == "with" || previous == "of" {
                // "exited with code", "a status of code…": the word before.
                let earlier = word(before: start - previous.unicodeScalars.count - 1, in: lower)
                if notOneTime.contains(earlier) { return false }
            }
            return !notOneTime.contains(previous)
        }
    }

    /// The word that ends one space or hyphen before `index` (at most 12
    /// letters of it), lowercased; "" when there is none.
    private static func word(before index: Int, in lower: [Unicode.Scalar]) -> String {
        let end = index - 1
        guard end > 0, lower[end] == " " || lower[end] == "-" else { return "" }
        var start = end
        while start > 0, isWordScalar(lower[start - 1]), end - start < 12 { start -= 1 }
        return text(lower[start..<end])
    }

    // MARK: Candidates

    /// The candidates of `scalars`, in order (see the type's rule).
    private static func candidates(_ scalars: [Unicode.Scalar]) -> [Range<Int>] {
        // Runs of ASCII letters and digits.
        var runs: [Range<Int>] = []
        var index = 0
        while index < scalars.count {
            guard isAlnum(scalars[index]) else { index += 1; continue }
            let start = index
            while index < scalars.count, isAlnum(scalars[index]) { index += 1 }
            runs.append(start..<index)
        }
        var result: [Range<Int>] = []
        var run = 0
        while run < runs.count {
            // The chain of runs joined by single hyphens, or by single
            // spaces between equal groups of 3–4 digits.
            var last = run
            while last + 1 < runs.count, joins(runs[last], runs[last + 1], scalars) { last += 1 }
            defer { run = last + 1 }
            guard last - run <= 1 else { continue }
            let range = runs[run].lowerBound..<runs[last].upperBound
            let count = runs[run...last].reduce(0) { $0 + $1.count }
            guard count >= shortest, count <= longest, standsAlone(range, scalars) else { continue }
            result.append(range)
        }
        return result
    }

    private static func joins(_ a: Range<Int>, _ b: Range<Int>, _ scalars: [Unicode.Scalar]) -> Bool {
        guard b.lowerBound == a.upperBound + 1 else { return false }
        switch scalars[a.upperBound] {
        case "-":
            return true
        case " ":
            let digits = { (range: Range<Int>) in scalars[range].allSatisfy(isDigit) }
            return a.count == b.count && (3...4).contains(a.count) && digits(a) && digits(b)
        default:
            return false
        }
    }

    /// Not a piece of a number, an amount, an address, a reference or a
    /// word in a script with letters of its own.
    private static func standsAlone(_ range: Range<Int>, _ scalars: [Unicode.Scalar]) -> Bool {
        func at(_ index: Int) -> Unicode.Scalar? { scalars.indices.contains(index) ? scalars[index] : nil }
        if let before = at(range.lowerBound - 1) {
            if "#!$€£¥@/\\_+*^~".unicodeScalars.contains(before) || isLetterOfSpacedScript(before) { return false }
            // A format character before it (Arabic's number signs) takes
            // its first character into its own.
            if before.properties.generalCategory == .format { return false }
            if (before == "." || before == ","), let earlier = at(range.lowerBound - 2), isAlnum(earlier) {
                return false
            }
        }
        if let after = at(range.upperBound) {
            if "%@/\\_+*^~".unicodeScalars.contains(after) || isLetterOfSpacedScript(after) { return false }
            // A mark after it (a combining accent, a variation selector, a
            // joiner) makes its last character another one.
            switch after.properties.generalCategory {
            case .nonspacingMark, .spacingMark, .enclosingMark, .format: return false
            default: break
            }
            if (after == "." || after == "," || after == ":"), let later = at(range.upperBound + 1), isAlnum(later) {
                return false
            }
        }
        return true
    }

    /// Digits, with capitals or alone: what a code looks like wherever it
    /// is.
    private static func isCodeLike(_ scalars: ArraySlice<Unicode.Scalar>) -> Bool {
        scalars.contains(where: isDigit) && !scalars.contains { ("a"..."z").contains($0) }
    }

    /// Capitals alone, or lowercase letters with digits: a code only right
    /// after its keyword ("code: XKPMQ", "code is k3j9x2"), since words
    /// look the same ("code is ready").
    private static func mayFollowDirectly(_ scalars: ArraySlice<Unicode.Scalar>) -> Bool {
        let lowercase = scalars.contains { ("a"..."z").contains($0) }
        return lowercase ? scalars.contains(where: isDigit) : true
    }

    /// Between a keyword and what follows it: only spaces, punctuation and
    /// at most one linking word ("code: 1234", "code is ABCD", "lautet").
    private static func isAdjacent(_ gap: ArraySlice<Unicode.Scalar>) -> Bool {
        let words = split(gap)
        guard words.count <= 1 else { return false }
        return words.first.map { linking.contains($0) } ?? true
    }

    /// Between a code and the keyword after it, a linking word: "123456 is
    /// your code", "… as Microsoft account security code".
    private static func linksBack(_ gap: ArraySlice<Unicode.Scalar>) -> Bool {
        let words = split(gap)
        return words.first.map { linking.contains($0) || $0 == "as" } ?? false
    }

    private static let linking: Set<String> = [
        "is", "es", "est", "ist", "er", "är", "é", "on", "jest", "to", "lautet", "was", "eh", "è",
    ]

    /// The words of a gap, lowercased; anything else in it is left out.
    private static func split(_ gap: ArraySlice<Unicode.Scalar>) -> [String] {
        var words: [String] = []
        var word = ""
        for scalar in gap {
            if isWordScalar(scalar) {
                word.unicodeScalars.append(scalar)
            } else if !word.isEmpty {
                words.append(word)
                word = ""
            }
        }
        if !word.isEmpty { words.append(word) }
        return words
    }

    // MARK: Characters

    private static func lowered(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        if scalar.isASCII {
            return ("A"..."Z").contains(scalar) ? Unicode.Scalar(scalar.value + 32)! : scalar
        }
        let mapping = scalar.properties.lowercaseMapping.unicodeScalars
        return mapping.count == 1 ? mapping.first! : scalar
    }

    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }

    private static func isAlnum(_ scalar: Unicode.Scalar) -> Bool {
        isDigit(scalar) || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }

    private static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        isDigit(scalar) || scalar.properties.isAlphabetic
    }

    /// A letter of a script that puts spaces between words (Latin, Greek,
    /// Cyrillic…): a run of ASCII next to one is part of a word. Chinese,
    /// Japanese and Korean letters are not, since they sit right next to
    /// codes ("验证码123456").
    private static func isLetterOfSpacedScript(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isAlphabetic && scalar.value < 0x2E80
    }

    private static func text(_ scalars: ArraySlice<Unicode.Scalar>) -> String {
        var text = ""
        text.unicodeScalars.append(contentsOf: scalars)
        return text
    }
}
