import Testing
import PerchCore

@Suite("Toast height")
struct ToastGeometryTests {
    let style = ToastStyle()

    @Test("a short body: padding, title, gap and one body line")
    func shortBody() {
        let geometry = ToastGeometry(titleHeight: 17, naturalBodyHeight: 16, hasIcon: false, style: style)
        #expect(geometry.height == 10 + 17 + 4 + 16 + 10)
        #expect(geometry.bodyHeight == 16)
    }

    @Test("a wrapped body makes the card taller")
    func wrappedBody() {
        let one = ToastGeometry(titleHeight: 17, naturalBodyHeight: 16, hasIcon: false, style: style)
        let three = ToastGeometry(titleHeight: 17, naturalBodyHeight: 48, hasIcon: false, style: style)
        #expect(three.height == one.height + 32)
    }

    @Test("an over-long body caps the card at 200 px and limits the body to what fits")
    func overLongBody() {
        let geometry = ToastGeometry(titleHeight: 17, naturalBodyHeight: 4000, hasIcon: false, style: style)
        #expect(geometry.height == 200)
        #expect(geometry.bodyHeight == 200 - 20 - 17 - 4)
    }

    @Test("an icon keeps the card at least icon-high")
    func iconMinimum() {
        let geometry = ToastGeometry(titleHeight: 17, naturalBodyHeight: 0, hasIcon: true, style: style)
        #expect(geometry.height == 32 + 20)
    }
}
