import Testing
@testable import PerchCore

/// Notifications covering every member of the wire form, set and unset,
/// and every kind of text the writer treats apart.
private let notifications: [Notification] = {
    var all: [Notification] = []
    all.append(Notification(id: 1, title: ""))
    all.append(Notification(id: 2, app: "mail", title: "New mail", body: "From: Ana"))
    var full = Notification(id: UInt32.max, app: "Firefox", title: "Download done", body: "<b>report.pdf</b>",
                            iconPath: "/usr/share/icons/hicolor/48x48/apps/firefox.png", urgency: .critical,
                            timeout: 2.5, actions: [NotificationAction(id: "default", label: "Open"),
                                                    NotificationAction(id: "show", label: "Show in folder")],
                            resident: true)
    full.transient = true
    full.category = "transfer.complete"
    full.progress = 100
    full.replyPlaceholder = "Reply…"
    full.sandbox = "org.mozilla.firefox"
    all.append(full)
    // Pixels are not part of the wire form: the line names only the icon.
    var withImage = Notification(id: 4, app: "chat", title: "Ana", body: "hi", iconPath: "avatar")
    withImage.image = ToastImage(width: 1, height: 1, rgba: [1, 2, 3, 4])
    all.append(withImage)
    all.append(Notification(id: 5, app: "ünïcødé 日本語", title: "emoji 🦜🏳️‍🌈", body: "combining e\u{301} and \u{FEFF}bom"))
    all.append(Notification(id: 6, app: "esc", title: "quote \" backslash \\ slash /",
                            body: "lines\nand\ttabs\r\u{8}\u{C}\u{0}\u{1F}\u{7F} end"))
    all.append(Notification(id: 7, title: "zero timeout", urgency: .low, timeout: 0))
    all.append(Notification(id: 8, title: "fractional", timeout: 0.1 + 0.2))
    all.append(Notification(id: 9, title: "huge", timeout: 1e300))
    all.append(Notification(id: 10, title: "\u{0}", body: String(repeating: "long ", count: 2000)))
    var progress = Notification(id: 11, title: "progress 0")
    progress.progress = 0
    progress.category = ""
    progress.replyPlaceholder = ""
    all.append(progress)
    all.append(Notification(id: 12, title: "empty action label",
                            actions: [NotificationAction(id: "x", label: "")]))
    return all
}()

private let remainings: [Double?] = [nil, 0, 5, 2.5, 1e-7, 86_400, .nan, .infinity, -0.0]
private let times: [Int64] = [0, 1_767_225_600, -1, 1 << 53, -(1 << 53), Int64.max, Int64.min]

/// The line the JSON tree of `record` makes, sealed as the journal seals
/// its lines.
private func treeLine(_ record: JournalRecord) -> [UInt8] {
    SealedLine.line(JSON.serializedBytes(record.json()))
}

/// Bytes as text that tells every byte apart (String equality would take
/// "e\u{301}" for "é"): printable ASCII as is, the rest as \xNN.
private func exact(_ bytes: [UInt8]) -> String {
    bytes.map { (0x20 ..< 0x7F).contains($0) ? String(UnicodeScalar($0)) : "\\x" + String($0, radix: 16) }.joined()
}

@Suite("Journal line writing")
struct JournalCodingTests {
    @Test("a live record is written byte for byte as its JSON tree is")
    func liveMatchesTree() {
        for notification in notifications {
            for remaining in remainings {
                for postedAt in times {
                    for nextID: UInt32 in [1, notification.id &+ 1, UInt32.max] where nextID != 0 {
                        let record = JournalRecord.live(LiveNotification(notification: notification,
                                                                         remaining: remaining, postedAt: postedAt),
                                                        nextID: nextID)
                        #expect(exact(record.encoded()) == exact(treeLine(record)))
                    }
                }
            }
        }
    }

    @Test("gone, restored, forgotten and modes records are written as their JSON trees are")
    func othersMatchTree() {
        var records: [JournalRecord] = []
        for id: UInt32 in [1, 42, UInt32.max] {
            for reason in DismissReason.allCases {
                for closedAt in times { records.append(.gone(id: id, reason: reason, closedAt: closedAt)) }
            }
            records.append(.restored(id: id))
            records.append(.forgotten(id: id))
        }
        records += [.modes([]), .modes(["do-not-disturb"]), .modes(["a\"b", "ü", "work"])]
        for record in records {
            #expect(exact(record.encoded()) == exact(treeLine(record)))
        }
    }

    @Test("a notification is written as ControlProtocol.encode gives it")
    func notificationMatchesWireForm() {
        for notification in notifications {
            var writer = JSONWriter()
            writer.write(notification)
            #expect(exact(writer.output) == exact(JSON.serializedBytes(ControlProtocol.encode(notification))))
        }
    }

    @Test("the journal line on disk keeps its exact text")
    func pinnedText() {
        let record = JournalRecord.live(LiveNotification(notification: notifications[2], remaining: 2.5,
                                                         postedAt: 1_767_225_600), nextID: 7)
        let expected = #"{"live":{"id":4294967295,"app":"Firefox","title":"Download done","body":"<b>report.pdf</b>","#
            + #""urgency":"critical","icon":"/usr/share/icons/hicolor/48x48/apps/firefox.png","timeout":2.5,"#
            + #""actions":[{"id":"default","label":"Open"},{"id":"show","label":"Show in folder"}],"#
            + #""resident":true,"transient":true,"category":"transfer.complete","progress":100,"#
            + #""reply_placeholder":"Reply…","sandbox":"org.mozilla.firefox"},"remaining":2.5,"posted_at":1767225600,"#
            + #""next_id":7,"crc":"3343bcc1"}"# + "\n"
        #expect(String(decoding: record.encoded(), as: UTF8.self) == expected)
        #expect(String(decoding: JournalRecord.gone(id: 3, reason: .closedByCall, closedAt: 5).encoded(),
                       as: UTF8.self) == #"{"gone":3,"reason":"closed-by-call","closed_at":5,"crc":"bed2ecb7"}"# + "\n")
    }

    @Test("every line written reads back as the record it came from")
    func roundTrip() throws {
        for notification in notifications {
            let record = JournalRecord.live(LiveNotification(notification: notification, remaining: 3,
                                                             postedAt: 100), nextID: 2)
            let line = record.boundedEncoding().bytes
            guard case .sealed(let object) = SealedLine.read(line.dropLast()) else {
                Issue.record("the line is not sealed: \(exact(line))")
                continue
            }
            let read = try JournalRecord(json: object)
            var expected = notification
            expected.image = nil
            _ = NotificationLimits.bound(&expected, includingImage: false)
            #expect(read == .live(LiveNotification(notification: expected, remaining: 3, postedAt: 100), nextID: 2))
        }
    }
}
