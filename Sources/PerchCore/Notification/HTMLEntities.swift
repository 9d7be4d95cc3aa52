/// The character references senders write in notification bodies, as
/// HTML knows them: the named entities of HTML 4 (Latin-1, symbols and
/// Greek, and the special characters — the ones Chromium, Thunderbird and
/// chat apps put in bodies) plus a few HTML5 names seen in the wild, and
/// numeric references (`&#8212;`, `&#x2014;`).
///
/// Pango's markup knows only `&amp;` `&lt;` `&gt;` `&quot;` `&apos;` and
/// numeric references to characters XML allows, and rejects the whole text
/// over one other; `BodyMarkup` decodes the rest here instead. In the core,
/// so that what a screen reader hears (`AccessText`) is read alike.
///
/// Names are case-sensitive, as in HTML (`&Eacute;` is not `&eacute;`).
public enum HTMLEntities {
    /// The character a named entity stands for; nil for a name it does not know.
    public static func scalar(named name: Substring) -> Unicode.Scalar? {
        guard name.utf8.count <= longestName, let value = table[String(name)] else { return nil }
        return Unicode.Scalar(value)
    }

    /// The longest name in the table: a longer one is not looked up.
    public static let longestName = 8

    /// What a numeric reference to `code` shows: the character, or nil
    /// when it is dropped. As HTML does, 0x80–0x9F are read as Windows-1252
    /// (`&#150;` is the en dash senders meant). Dropped: NUL, the other
    /// control characters but tab, line feed and carriage return, the
    /// surrogates, non-characters (U+FDD0–U+FDEF and every U+xxFFFE,
    /// U+xxFFFF) and anything past U+10FFFF — none of them is text, and
    /// Pango draws some as boxes or stops at them.
    public static func scalar(forReference code: UInt32) -> Unicode.Scalar? {
        if (0x80...0x9F).contains(code) {
            let mapped = windows1252[Int(code - 0x80)]
            return mapped == 0 ? nil : Unicode.Scalar(mapped)
        }
        switch code {
        case 0x09, 0x0A, 0x0D: break
        case 0..<0x20, 0x7F: return nil
        case 0xFDD0...0xFDEF: return nil
        case _ where code & 0xFFFE == 0xFFFE: return nil
        default: break
        }
        // Nil for surrogates and past U+10FFFF.
        return Unicode.Scalar(code)
    }

    /// 0x80–0x9F in Windows-1252; 0 where it has no character (those are dropped).
    private static let windows1252: [UInt32] = [
        0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
        0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017D, 0,
        0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
        0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E, 0x0178,
    ]

    /// U+00A0 to U+00FF, in order: HTML names every Latin-1 character.
    private static let latin1: [String] = [
        "nbsp", "iexcl", "cent", "pound", "curren", "yen", "brvbar", "sect",
        "uml", "copy", "ordf", "laquo", "not", "shy", "reg", "macr",
        "deg", "plusmn", "sup2", "sup3", "acute", "micro", "para", "middot",
        "cedil", "sup1", "ordm", "raquo", "frac14", "frac12", "frac34", "iquest",
        "Agrave", "Aacute", "Acirc", "Atilde", "Auml", "Aring", "AElig", "Ccedil",
        "Egrave", "Eacute", "Ecirc", "Euml", "Igrave", "Iacute", "Icirc", "Iuml",
        "ETH", "Ntilde", "Ograve", "Oacute", "Ocirc", "Otilde", "Ouml", "times",
        "Oslash", "Ugrave", "Uacute", "Ucirc", "Uuml", "Yacute", "THORN", "szlig",
        "agrave", "aacute", "acirc", "atilde", "auml", "aring", "aelig", "ccedil",
        "egrave", "eacute", "ecirc", "euml", "igrave", "iacute", "icirc", "iuml",
        "eth", "ntilde", "ograve", "oacute", "ocirc", "otilde", "ouml", "divide",
        "oslash", "ugrave", "uacute", "ucirc", "uuml", "yacute", "thorn", "yuml",
    ]

    /// U+0391 to U+03A9 and U+03B1 to U+03C9, in order (U+03A2 has no
    /// capital, so it has no name).
    private static let greekCapitals = ["Alpha", "Beta", "Gamma", "Delta", "Epsilon", "Zeta", "Eta", "Theta",
                                        "Iota", "Kappa", "Lambda", "Mu", "Nu", "Xi", "Omicron", "Pi", "Rho",
                                        "", "Sigma", "Tau", "Upsilon", "Phi", "Chi", "Psi", "Omega"]
    private static let greekSmall = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta",
                                     "iota", "kappa", "lambda", "mu", "nu", "xi", "omicron", "pi", "rho",
                                     "sigmaf", "sigma", "tau", "upsilon", "phi", "chi", "psi", "omega"]

    /// The rest, by code point.
    private static let others: [(String, UInt32)] = [
        // The five XML knows: read like the rest, escaped again where they must be.
        ("quot", 0x22), ("amp", 0x26), ("apos", 0x27), ("lt", 0x3C), ("gt", 0x3E),
        // Special characters.
        ("OElig", 0x152), ("oelig", 0x153), ("Scaron", 0x160), ("scaron", 0x161), ("Yuml", 0x178),
        ("fnof", 0x192), ("circ", 0x2C6), ("tilde", 0x2DC),
        ("ensp", 0x2002), ("emsp", 0x2003), ("thinsp", 0x2009), ("zwnj", 0x200C), ("zwj", 0x200D),
        ("lrm", 0x200E), ("rlm", 0x200F), ("ndash", 0x2013), ("mdash", 0x2014), ("lsquo", 0x2018),
        ("rsquo", 0x2019), ("sbquo", 0x201A), ("ldquo", 0x201C), ("rdquo", 0x201D), ("bdquo", 0x201E),
        ("dagger", 0x2020), ("Dagger", 0x2021), ("bull", 0x2022), ("hellip", 0x2026), ("permil", 0x2030),
        ("prime", 0x2032), ("Prime", 0x2033), ("lsaquo", 0x2039), ("rsaquo", 0x203A), ("oline", 0x203E),
        ("frasl", 0x2044), ("euro", 0x20AC),
        // Greek symbols.
        ("thetasym", 0x3D1), ("upsih", 0x3D2), ("piv", 0x3D6),
        // Letter-like symbols and arrows.
        ("image", 0x2111), ("weierp", 0x2118), ("real", 0x211C), ("trade", 0x2122), ("alefsym", 0x2135),
        ("larr", 0x2190), ("uarr", 0x2191), ("rarr", 0x2192), ("darr", 0x2193), ("harr", 0x2194),
        ("crarr", 0x21B5), ("lArr", 0x21D0), ("uArr", 0x21D1), ("rArr", 0x21D2), ("dArr", 0x21D3),
        ("hArr", 0x21D4),
        // Mathematical operators.
        ("forall", 0x2200), ("part", 0x2202), ("exist", 0x2203), ("empty", 0x2205), ("nabla", 0x2207),
        ("isin", 0x2208), ("notin", 0x2209), ("ni", 0x220B), ("prod", 0x220F), ("sum", 0x2211),
        ("minus", 0x2212), ("lowast", 0x2217), ("radic", 0x221A), ("prop", 0x221D), ("infin", 0x221E),
        ("ang", 0x2220), ("and", 0x2227), ("or", 0x2228), ("cap", 0x2229), ("cup", 0x222A),
        ("int", 0x222B), ("there4", 0x2234), ("sim", 0x223C), ("cong", 0x2245), ("asymp", 0x2248),
        ("ne", 0x2260), ("equiv", 0x2261), ("le", 0x2264), ("ge", 0x2265), ("sub", 0x2282),
        ("sup", 0x2283), ("nsub", 0x2284), ("sube", 0x2286), ("supe", 0x2287), ("oplus", 0x2295),
        ("otimes", 0x2297), ("perp", 0x22A5), ("sdot", 0x22C5),
        // Technical and geometric shapes; HTML5 moved lang and rang to the angle brackets.
        ("lceil", 0x2308), ("rceil", 0x2309), ("lfloor", 0x230A), ("rfloor", 0x230B),
        ("lang", 0x27E8), ("rang", 0x27E9), ("loz", 0x25CA),
        ("spades", 0x2660), ("clubs", 0x2663), ("hearts", 0x2665), ("diams", 0x2666),
        // HTML5 names that turn up in bodies.
        ("hyphen", 0x2010), ("dash", 0x2010), ("horbar", 0x2015), ("mldr", 0x2026), ("half", 0xBD),
        ("numsp", 0x2007), ("puncsp", 0x2008), ("hairsp", 0x200A), ("emsp13", 0x2004), ("emsp14", 0x2005),
        ("numero", 0x2116), ("copysr", 0x2117), ("pertenk", 0x2031), ("check", 0x2713), ("cross", 0x2717),
        ("starf", 0x2605), ("star", 0x2606), ("phone", 0x260E), ("female", 0x2640), ("male", 0x2642),
        ("flat", 0x266D), ("natural", 0x266E), ("sharp", 0x266F), ("squ", 0x25A1), ("squf", 0x25AA),
        ("frac13", 0x2153), ("frac23", 0x2154), ("frac15", 0x2155), ("frac25", 0x2156), ("frac35", 0x2157),
        ("frac45", 0x2158), ("frac16", 0x2159), ("frac56", 0x215A), ("frac18", 0x215B), ("frac38", 0x215C),
        ("frac58", 0x215D), ("frac78", 0x215E),
        ("COPY", 0xA9), ("REG", 0xAE), ("TRADE", 0x2122), ("AMP", 0x26), ("LT", 0x3C), ("GT", 0x3E),
        ("QUOT", 0x22),
    ]

    private static let table: [String: UInt32] = {
        var table: [String: UInt32] = [:]
        for (offset, name) in latin1.enumerated() { table[name] = 0xA0 + UInt32(offset) }
        for (offset, name) in greekCapitals.enumerated() where !name.isEmpty { table[name] = 0x391 + UInt32(offset) }
        for (offset, name) in greekSmall.enumerated() { table[name] = 0x3B1 + UInt32(offset) }
        for (name, value) in others { table[name] = value }
        return table
    }()
}
