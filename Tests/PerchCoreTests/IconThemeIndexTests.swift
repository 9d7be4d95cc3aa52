import Testing
@testable import PerchCore

private func parse(_ text: String) -> (index: IconThemeIndex?, diagnostics: [String]) {
    IconThemeIndex.parse(Array(text.utf8))
}

@Suite("index.theme")
struct IconThemeIndexTests {
    @Test("a theme's name, inherited themes and directories are read, with the spec's defaults")
    func readsTheIndex() {
        let (index, diagnostics) = parse("""
            # A comment
            [Icon Theme]
            Name=Papirus
            Name[de]=Papyrus
            Inherits = breeze, hicolor
            Directories=16x16/apps,scalable/apps,
            ScaledDirectories=16x16@2/apps

            [16x16/apps]
            Size=16

            [16x16@2/apps]
            Size=16
            Scale=2
            Type=Fixed

            [scalable/apps]
            Size=16
            MinSize=8
            MaxSize=512
            Type=Scalable
            """)
        #expect(diagnostics.isEmpty)
        #expect(index?.name == "Papirus")
        #expect(index?.inherits == ["breeze", "hicolor"])
        #expect(index?.directories == [
            IconThemeDirectory(path: "16x16/apps", size: 16, scale: 1, kind: .threshold,
                               minimumSize: 16, maximumSize: 16, threshold: 2),
            IconThemeDirectory(path: "scalable/apps", size: 16, kind: .scalable, minimumSize: 8, maximumSize: 512),
            IconThemeDirectory(path: "16x16@2/apps", size: 16, scale: 2, kind: .fixed),
        ])
    }

    @Test("Windows line ends and a directory listed twice are read as intended")
    func lineEndsAndDuplicates() {
        let (index, _) = parse("[Icon Theme]\r\nName=T\r\nDirectories=a,a\r\nScaledDirectories=a\r\n[a]\r\nSize=8\r\n")
        #expect(index?.name == "T")
        #expect(index?.directories.map(\.path) == ["a"])
        #expect(index?.directories.first?.size == 8)
    }

    @Test("a file without an [Icon Theme] group is no theme")
    func noThemeGroup() {
        let (index, diagnostics) = parse("[Desktop Entry]\nName=x\n")
        #expect(index == nil)
        #expect(diagnostics == ["no [Icon Theme] group"])
    }

    @Test("a bad directory is skipped with a reason and the others are kept")
    func badDirectories() {
        let (index, diagnostics) = parse("""
            [Icon Theme]
            Directories=nogroup,nosize,badsize,badtype,inverted,/abs,../up,a//b,good
            [nosize]
            Type=Fixed
            [badsize]
            Size=-3
            [badtype]
            Size=16
            Type=Stretchy
            [inverted]
            Size=16
            MinSize=32
            MaxSize=8
            [good]
            Size=48
            """)
        #expect(index?.directories.map(\.path) == ["good"])
        #expect(diagnostics.count == 8)
        #expect(diagnostics.contains("directory badtype: Type=Stretchy is not Fixed, Scalable or Threshold; ignored"))
        #expect(diagnostics.contains("directory \"../up\" is not a plain relative path; ignored"))
    }

    @Test("lines that are not key=value are reported by line, a few at most, and the rest is read")
    func brokenLines() {
        var text = "[Icon Theme]\nName=T\n"
        for _ in 0..<20 { text += "garbage\n" }
        text += "Directories=a\n[a]\nSize=8\n[unclosed\nSize=9\n"
        let (index, diagnostics) = parse(text)
        #expect(index?.directories.map(\.path) == ["a"])
        #expect(diagnostics.first == "line 3: not a Key=Value line")
        #expect(diagnostics.count == 9)
        #expect(diagnostics.last == "and 13 more problems")
    }

    @Test("a file over 1 MiB is refused before it is read")
    func hugeFile() {
        let (index, diagnostics) = parse("[Icon Theme]\n" + String(repeating: "#", count: 1 << 20))
        #expect(index == nil)
        #expect(diagnostics.first?.contains("more than 1048576") == true)
    }

    @Test("no more than 2048 directories are kept")
    func directoryCap() {
        var text = "[Icon Theme]\nDirectories=" + (0..<3_000).map { "d\($0)" }.joined(separator: ",") + "\n"
        for number in 0..<3_000 { text += "[d\(number)]\nSize=16\n" }
        let (index, diagnostics) = parse(text)
        #expect(index?.directories.count == 2_048)
        #expect(diagnostics == ["more than 2048 directories; the rest are ignored"])
    }

    @Test("values keep their escapes' meaning and a repeated group or key keeps its first value")
    func escapesAndRepeats() {
        let file = DesktopKeyFile(parsing: Array("[G]\nA=one\\stwo\\\\\nA=second\n[G]\nA=third\n".utf8))
        #expect(file.value("A", in: "G") == "one two\\")
        #expect(file.diagnostics == ["line 4: [G] appears again; the first one is used"])
    }
}

@Suite("Icon directory sizes")
struct IconThemeDirectoryTests {
    @Test("a Fixed directory matches its size at its scale only")
    func fixed() {
        let directory = IconThemeDirectory(path: "d", size: 32, scale: 2, kind: .fixed)
        #expect(directory.matches(size: 32, scale: 2))
        #expect(!directory.matches(size: 32, scale: 1))
        #expect(!directory.matches(size: 33, scale: 2))
        #expect(directory.distance(size: 64, scale: 1) == 0)
        #expect(directory.distance(size: 48, scale: 1) == 16)
    }

    @Test("a Threshold directory matches size ± threshold and measures from those bounds")
    func threshold() {
        let directory = IconThemeDirectory(path: "d", size: 22, threshold: 2)
        #expect(directory.matches(size: 20, scale: 1) && directory.matches(size: 24, scale: 1))
        #expect(!directory.matches(size: 25, scale: 1))
        #expect(directory.distance(size: 30, scale: 1) == 6)
        #expect(directory.distance(size: 16, scale: 1) == 4)
    }

    @Test("a Scalable directory matches MinSize...MaxSize")
    func scalable() {
        let directory = IconThemeDirectory(path: "d", size: 16, kind: .scalable, minimumSize: 8, maximumSize: 64)
        #expect(directory.matches(size: 8, scale: 1) && directory.matches(size: 64, scale: 1))
        #expect(!directory.matches(size: 65, scale: 1))
        #expect(directory.distance(size: 100, scale: 1) == 36)
        #expect(directory.distance(size: 4, scale: 1) == 4)
    }
}
