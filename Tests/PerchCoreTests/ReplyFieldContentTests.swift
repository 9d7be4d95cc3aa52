import Testing
import PerchCore

@Suite("The reply field on a toast")
struct ReplyFieldContentTests {
    let reply = NotificationAction(id: NotificationAction.inlineReplyID, label: "Reply")
    let open = NotificationAction(id: "open", label: "Open")

    @Test("a notification with inline-reply starts with an empty, unfocused field and its placeholder")
    func emptyField() {
        var notification = Notification(title: "Ann", actions: [open, reply])
        #expect(notification.emptyReplyField == ReplyField(placeholder: "Reply…"))
        notification.replyPlaceholder = "Answer Ann"
        #expect(notification.emptyReplyField == ReplyField(placeholder: "Answer Ann", text: "", cursor: 0,
                                                            isFocused: false))
        #expect(Notification(title: "plain", actions: [open]).emptyReplyField == nil)
    }

    @Test("a toast with the field has no inline-reply button; one without keeps it")
    func replyButtonLeftOut() {
        var content = Notification(title: "Ann", actions: [open, reply]).content
        content.leaveOutReplyButton()
        #expect(content.buttons == [open, reply], "no field: the button is the way to answer")
        content.reply = ReplyField()
        content.leaveOutReplyButton()
        #expect(content.buttons == [open])
    }
}
