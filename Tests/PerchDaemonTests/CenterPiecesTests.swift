@testable import PerchCore
@testable import PerchDaemon
import Testing

/// The center's images as a list of group headers scrolls past: which are
/// kept between frames and which are drawn again.
struct CenterPiecesTests {
    private var pieces = CenterPieces()
    /// The headers drawn into an image, in order.
    private var drawn: [String] = []

    /// One composition that shows the headers of `apps`.
    private mutating func compose(_ apps: [String]) {
        for app in apps {
            let shows = CenterPieces.Look.header(CenterHeaderContent(appName: app, count: 1))
            _ = pieces.image(.header(app: app), shows: shows, width: 10, height: 4, scale: 1) { _ in
                drawn.append(app)
            }
        }
        pieces.endComposition()
    }

    @Test("a piece drawn in the last frame is kept and not drawn again")
    mutating func keptWhileShown() {
        compose(["mail", "chat"])
        compose(["mail", "chat"])
        #expect(drawn == ["mail", "chat"])
        #expect(pieces.kept == [.header(app: "mail"), .header(app: "chat")])
    }

    @Test("a piece scrolled out of view loses its image after that frame")
    mutating func droppedWhenNotShown() {
        compose(["mail", "chat", "build"])
        compose(["chat", "build"])
        #expect(pieces.kept == [.header(app: "chat"), .header(app: "build")])
    }

    @Test("a piece scrolled back into view is drawn again")
    mutating func drawnAgainWhenBack() {
        compose(["mail", "chat"])
        compose(["chat"])
        compose(["mail", "chat"])
        #expect(drawn == ["mail", "chat", "mail"])
    }

    @Test("the images kept follow the frame, not how many pieces were ever shown")
    mutating func boundedByTheFrame() {
        for first in 0..<100 { compose((first..<first + 5).map { "app \($0)" }) }
        #expect(pieces.kept.count == 5)
    }
}
