import PerchCore
import PerchRender
import Testing

@Suite("Render problems are values, told once per notification")
struct RenderProblemTests {
    let style = ToastStyle()
    /// A colour Pango cannot read is the markup problem left once bodies
    /// are read as apps write them (`BodyMarkup`).
    let bad = ToastContent(title: "T", body: #"fish & chips <span foreground="nocolour">red</span>"#,
                           iconPath: "/nonexistent/icon.png")

    @Test("measuring and drawing a card with bad markup and a missing icon each return both problems")
    func badCard() {
        let renderer = makeRenderer()
        let (geometry, measured) = renderer.measure(bad, style: style)
        let canvas = Canvas(width: style.width, height: geometry.height)
        let drawn = renderer.draw(bad, style: style, geometry: geometry, into: canvas.target, scale: 1)
        for problems in [measured, drawn] {
            #expect(problems.count == 2, "\(problems)")
            #expect(problems.contains(RenderProblem(.iconFile("/nonexistent/icon.png"), "file not found")))
            #expect(problems.contains { $0.place == .text("body") && $0.message.hasPrefix("markup: ") },
                    "\(problems)")
        }
        #expect(lines(drawn).contains("icon /nonexistent/icon.png: file not found"))
    }

    @Test("a clean card returns no problems, measured or drawn, however often")
    func cleanCard() {
        let renderer = makeRenderer()
        let clean = ToastContent(title: "T", body: "fish &amp; chips <b>closed</b>")
        for _ in 0..<2 {
            let (geometry, measured) = renderer.measure(clean, style: style)
            let canvas = Canvas(width: style.width, height: geometry.height)
            #expect(measured.isEmpty)
            #expect(renderer.draw(clean, style: style, geometry: geometry, into: canvas.target, scale: 1).isEmpty)
        }
    }

    @Test("the banner and a center entry return the same card's problems")
    func bannerAndEntry() {
        let cards = makeRenderer()
        let banner = BannerRenderer(text: cards.text).height(for: bad, style: style)
        let entry = CenterRenderer(cards: cards).entryGeometry(for: bad, age: "now", width: 300, style: style)
        #expect(Set(banner.problems) == Set(cards.measure(bad, style: style).problems))
        #expect(Set(entry.problems) == Set(banner.problems))
    }

    @Test("the teller tells a notification's problem once however often it is measured and drawn")
    func toldOnce() {
        var told: [String] = []
        let teller = ProblemTeller { line, _ in told.append(line) }
        let renderer = makeRenderer()
        for _ in 0..<3 {
            let (geometry, measured) = renderer.measure(bad, style: style)
            teller.tell(measured, about: .notification(7))
            let canvas = Canvas(width: style.width, height: geometry.height)
            teller.tell(renderer.draw(bad, style: style, geometry: geometry, into: canvas.target, scale: 1),
                        about: .notification(7))
        }
        #expect(told.count == 2, "\(told)")
        #expect(told.contains("notification 7: icon /nonexistent/icon.png: file not found"), "\(told)")
        #expect(told.contains { $0.hasPrefix("notification 7: body markup: ") }, "\(told)")
    }

    @Test("each line is handed on with its cause: the problem without the notification")
    func causes() {
        var told: [(String, String)] = []
        let teller = ProblemTeller { told.append(($0, $1)) }
        let missing = RenderProblem(.iconFile("/x.png"), "file not found")
        teller.tell([missing], about: .notification(1))
        teller.tell([missing], about: .notification(2))
        #expect(told.map(\.1) == ["icon /x.png: file not found", "icon /x.png: file not found"])
        #expect(told.map(\.0) == ["notification 1: icon /x.png: file not found",
                                  "notification 2: icon /x.png: file not found"])
    }

    @Test("with the test's fonts the warm-up finds nothing wrong, however often it runs (each reload)")
    func warmUpWithFonts() {
        let text = makeText()
        #expect(text.warmUp(style: style).isEmpty)
        #expect(text.warmUp(style: style).isEmpty)
    }

    @Test("the no-fonts problem is told as its message alone")
    func fontsProblem() {
        let problem = RenderProblem(.fonts, "fontconfig finds no fonts (FONTCONFIG_FILE=/x): text is drawn with Pango's fallback")
        #expect("\(problem)" == "fontconfig finds no fonts (FONTCONFIG_FILE=/x): text is drawn with Pango's fallback")
    }

    @Test("the same problem is told again for another notification, and a new one for the same")
    func perNotification() {
        var told: [String] = []
        let teller = ProblemTeller { line, _ in told.append(line) }
        let missing = RenderProblem(.iconFile("/x.png"), "file not found")
        teller.tell([missing], about: .notification(1))
        teller.tell([missing], about: .notification(2))
        teller.tell([missing, RenderProblem(.text("body"), "markup: bad")], about: .notification(1))
        #expect(told == ["notification 1: icon /x.png: file not found", "notification 2: icon /x.png: file not found",
                         "notification 1: body markup: bad"])
    }

    @Test("the teller remembers at most its capacity of subjects, forgetting the one told longest ago")
    func bounded() {
        var told: [String] = []
        let teller = ProblemTeller(capacity: 2) { line, _ in told.append(line) }
        let problem = RenderProblem(.iconFile("/x.png"), "file not found")
        teller.tell([problem], about: .notification(1))
        teller.tell([problem], about: .notification(2))
        teller.tell([problem], about: .notification(1))
        teller.tell([problem], about: .notification(3))
        #expect(told.count == 3)
        teller.tell([problem], about: .notification(1))
        #expect(told.count == 3, "1 was told more recently than 2, which went: \(told)")
        teller.tell([problem], about: .notification(2))
        #expect(told.count == 4 && told.last == "notification 2: icon /x.png: file not found")
        teller.tell([], about: .notification(9))
    }
}
