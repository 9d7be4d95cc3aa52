import Testing
@testable import PerchCore

/// The timeout a live notification carries is the one its timer keeps:
/// `list` reports it, so a script reading `"timeout"` learns when (or
/// whether) the toast goes.
@Suite("The timeout in force")
struct TimeoutInForceTests {
    let t0 = serviceTestStart
    /// Past the entry (0.7 s) and a little more.
    let shown = 1.0

    private func timeout(_ h: ServiceHarness, _ id: UInt32) -> Double? {
        h.service.live.first { $0.id == id }?.timeout
    }

    @Test("a critical notification's own timeout is not kept: it stays, and says 0")
    func criticalStays() {
        var h = ServiceHarness()
        let id = h.post("Disk full", urgency: .critical, timeout: 2)
        #expect(timeout(h, id) == 0)
        h.advance(to: t0 + 3_600)
        #expect(h.liveIDs == [id])
    }

    @Test("a section's default-timeout makes a critical notification expire, and says so")
    func criticalSection() {
        var h = ServiceHarness("[urgency=critical]\ndefault-timeout=4000\n")
        let id = h.post("Battery low", urgency: .critical, timeout: 60)
        #expect(timeout(h, id) == 4)
        h.advance(to: t0 + shown + 3)
        #expect(h.liveIDs == [id])
        h.advance(to: t0 + shown + 4)
        #expect(h.liveIDs.isEmpty)
        #expect(h.historyReasons == [.expired])
    }

    @Test("ignore-timeout reports and keeps the config's time, not the sender's")
    func ignoreTimeout() {
        var h = ServiceHarness("ignore-timeout=1\ndefault-timeout=3000\n")
        let id = h.post("Build", timeout: 60)
        #expect(timeout(h, id) == 3)
        h.advance(to: t0 + shown + 3)
        #expect(h.liveIDs.isEmpty)
    }

    @Test("the sender's timeout, 0 and none")
    func senders() {
        var h = ServiceHarness("default-timeout=7000\n")
        let own = h.post("own", timeout: 2)
        let sticky = h.post("sticky", timeout: 0)
        let none = h.post("none")
        let low = h.post("low", urgency: .low)
        #expect(timeout(h, own) == 2)
        #expect(timeout(h, sticky) == 0)
        #expect(timeout(h, none) == 7)
        #expect(timeout(h, low) == 7)
    }

    @Test("a timeout past the longest display time is cut to it")
    func longest() {
        var h = ServiceHarness()
        let id = h.post("forever-ish", timeout: 1e12)
        #expect(timeout(h, id) == NotificationService.longestDisplayTime)
    }

    @Test("what list encodes is the timeout in force")
    func listed() {
        var h = ServiceHarness()
        let id = h.post("Disk full", urgency: .critical, timeout: 2)
        let listed = h.service.live.first { $0.id == id }.map { ControlProtocol.encode($0) }
        #expect(listed?.objectValue?["timeout"] == .number(0))
    }
}
