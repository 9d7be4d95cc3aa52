import Testing
@testable import PerchCore

private let t0 = serviceTestStart

@Suite("One record per live notification")
struct LiveRecordsTests {
    @Test("a record with nothing in it is not kept")
    func emptyRecordsGo() {
        var records = LiveRecords()
        records[7].sender = ClientToken(1)
        records[7].postedAt = 1_700_000_000
        #expect(records.count == 1)
        records[7].sender = nil
        #expect(records.count == 1, "its post time is still there")
        records[7].postedAt = nil
        #expect(records.count == 0)
        #expect(records[7] == LiveRecord(), "reading an id without a record makes none")
        #expect(records.count == 0)
    }

    @Test("a tag names the notification that took it last; one that leaves takes only its own tag along")
    func tagIndex() {
        var records = LiveRecords()
        let volume = SynchronousTag(sandbox: nil, name: "volume")
        records[1].synchronousTag = volume
        #expect(records.id(tagged: volume) == 1)
        records[2].synchronousTag = volume
        #expect(records.id(tagged: volume) == 2)
        records.remove(1)
        #expect(records.id(tagged: volume) == 2, "the first one's leaving does not untag the second")
        records[2].synchronousTag = SynchronousTag(sandbox: nil, name: "brightness")
        #expect(records.id(tagged: volume) == nil, "a new tag replaces the old one")
        records.remove(2)
        #expect(records.id(tagged: SynchronousTag(sandbox: nil, name: "brightness")) == nil)
        #expect(records.count == 0)
    }

    @Test("the ids to measure again are those whose record says so, and go with the record")
    func measuringIndex() {
        var records = LiveRecords()
        records[3].needsMeasuring = true
        records[4].needsMeasuring = true
        records[4].draft = ReplyDraft()
        #expect(records.unmeasured == [3, 4])
        records[3].needsMeasuring = false
        #expect(records.unmeasured == [4])
        #expect(records.count == 1)
        records.remove(4)
        #expect(records.unmeasured.isEmpty)
        #expect(records.count == 0)
    }

    @Test("nothing the service kept about a notification outlives it, whatever it was given")
    func retiringRemovesTheRecord() {
        var h = ServiceHarness("group-by=app-name\nshow-age-after=1\nformat=%s (%g)\\n%b", timeout: 0)
        let first = h.post("one", app: "chat", tag: "t1", from: ClientToken(5))
        let second = h.post("two", app: "chat", tag: "t2", from: ClientToken(6))
        let tagged = h.post("volume", app: "mixer", tag: "volume",
                            actions: [NotificationAction(id: "inline-reply", label: "Reply")], from: ClientToken(7))
        h.advance(to: t0 + 3)
        var effects: [ServiceEffect] = []
        h.service.focusReplyField(tagged, at: t0 + 3, into: &effects)
        h.service.edit(.insert("draft"), replyOf: tagged, at: t0 + 3, into: &effects)
        #expect(h.service.records[tagged].draft != nil)
        #expect(h.service.records[second].groupCount == 2)
        #expect(h.service.records[tagged].ageShown != nil)
        #expect(h.service.records.count == 3)
        for id in [first, second, tagged] { _ = h.dismiss(.id(id), at: t0 + 4) }
        h.advance(to: t0 + 6)
        #expect(h.service.live.isEmpty)
        #expect(h.service.records.count == 0)
        #expect(h.service.records.unmeasured.isEmpty)
        #expect(h.service.records.id(tagged: SynchronousTag(sandbox: nil, name: "volume")) == nil)
        #expect(h.post("volume", app: "mixer", tag: "volume", at: t0 + 6) != tagged, "a closed tag starts anew")
    }
}
