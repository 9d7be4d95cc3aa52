import Testing
@testable import PerchCore

/// A critical notification is drawn apart from the others unless the
/// config sets the colours itself.
@Suite("The critical look")
struct CriticalLookTests {
    private func style(_ config: Config, _ urgency: Urgency) -> ToastStyle {
        config.resolve(for: Notification(title: "t", urgency: urgency), modes: []).style
    }

    @Test("by default critical has its red card and border; low and normal keep the plain one")
    func defaults() {
        let config = cleanConfig("")
        let plain = ToastStyle()
        #expect(style(config, .critical).background == ToastStyle.critical.background)
        #expect(style(config, .critical).border == ToastStyle.critical.border)
        #expect(style(config, .critical).text == plain.text)
        for urgency in [Urgency.low, .normal] {
            #expect(style(config, urgency).background == plain.background)
            #expect(style(config, urgency).border == plain.border)
        }
    }

    @Test("a global colour is the user's for every urgency, critical included")
    func globalWins() {
        let config = cleanConfig("border-color=#88c0d0\n")
        let critical = style(config, .critical)
        #expect(critical.border == RGBA(red: 0x88 / 255.0, green: 0xc0 / 255.0, blue: 0xd0 / 255.0))
        // The colour not set keeps the critical default.
        #expect(critical.background == ToastStyle.critical.background)
    }

    @Test("a section sets critical's colours, as in a mako config")
    func sectionWins() {
        let config = cleanConfig("[urgency=critical]\nbackground-color=#000000\nborder-color=#ffffff\n")
        #expect(style(config, .critical).background == RGBA.black)
        #expect(style(config, .critical).border == RGBA.white)
    }

    @Test("a section for others leaves critical's default alone")
    func otherSection() {
        let config = cleanConfig("[urgency=normal]\nborder-color=#00ff00\n")
        #expect(style(config, .critical).border == ToastStyle.critical.border)
        #expect(style(config, .normal).border == RGBA(red: 0, green: 1, blue: 0))
    }
}
