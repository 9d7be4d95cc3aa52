import Testing
import PerchCore

/// The draft's text with "|" at the cursor, to read a state at a glance.
private func shown(_ draft: ReplyDraft) -> String {
    let utf8 = Array(draft.text.utf8)
    return String(decoding: utf8[..<draft.cursor], as: UTF8.self) + "|"
        + String(decoding: utf8[draft.cursor...], as: UTF8.self)
}

@Suite("Reply field editing")
struct ReplyDraftTests {
    @Test("typing inserts at the cursor and moves it past the text")
    func typing() {
        var draft = ReplyDraft()
        draft.insert("helo")
        draft.moveLeft()
        draft.insert("l")
        #expect(shown(draft) == "hell|o")
        draft.moveToEnd()
        draft.insert(" world")
        #expect(shown(draft) == "hello world|")
        draft.moveToStart()
        draft.insert("> ")
        #expect(shown(draft) == "> |hello world")
    }

    @Test("Backspace and Left/Right go over a whole character: a combining accent, an emoji, a flag")
    func graphemes() {
        var draft = ReplyDraft("ae\u{301}👨\u{200D}👩\u{200D}👧🇫🇷")
        draft.moveLeft()
        #expect(shown(draft) == "ae\u{301}👨\u{200D}👩\u{200D}👧|🇫🇷")
        draft.moveLeft()
        #expect(shown(draft) == "ae\u{301}|👨\u{200D}👩\u{200D}👧🇫🇷")
        draft.deleteBackward()
        #expect(shown(draft) == "a|👨\u{200D}👩\u{200D}👧🇫🇷")
        draft.moveRight()
        draft.moveRight()
        #expect(shown(draft) == "a👨\u{200D}👩\u{200D}👧🇫🇷|")
        draft.deleteBackward()
        #expect(shown(draft) == "a👨\u{200D}👩\u{200D}👧|")
        draft.moveRight()
        #expect(shown(draft) == "a👨\u{200D}👩\u{200D}👧|")
    }

    @Test("a combining mark typed after a letter joins it, and the cursor stays after both")
    func deadKeyResult() {
        var draft = ReplyDraft("e")
        draft.insert("\u{301}")
        #expect(draft.text == "e\u{301}")
        draft.deleteBackward()
        #expect(shown(draft) == "|")
    }

    @Test("a regional indicator typed before another makes a flag; the cursor goes past it")
    func joiningInsert() {
        var draft = ReplyDraft("🇷x")
        draft.moveToStart()
        draft.insert("🇫")
        #expect(shown(draft) == "🇫🇷|x")
    }

    @Test("Ctrl+Backspace removes the word before the cursor and the spaces after it")
    func wordDelete() {
        var draft = ReplyDraft("see you at 8pm  ")
        draft.deleteWordBackward()
        #expect(shown(draft) == "see you at |")
        draft.insert("nine?!")
        draft.deleteWordBackward()
        #expect(shown(draft) == "see you at nine|")
        draft.moveLeft()
        draft.moveLeft()
        draft.deleteWordBackward()
        #expect(shown(draft) == "see you at |ne")
        draft.moveToStart()
        draft.deleteWordBackward()
        #expect(shown(draft) == "|see you at ne")
    }

    @Test("Delete removes the character after the cursor; Home and End go to the ends")
    func deleteForward() {
        var draft = ReplyDraft("ab🇫🇷c")
        draft.moveToStart()
        draft.moveRight()
        draft.moveRight()
        draft.deleteForward()
        #expect(shown(draft) == "ab|c")
        draft.moveToEnd()
        draft.deleteForward()
        #expect(shown(draft) == "abc|")
    }

    @Test("what is typed or pasted is cleaned, and what passes the limit is left out whole")
    func cleanedAndCapped() {
        var draft = ReplyDraft(limit: 8)
        draft.insert("a\tb\u{1B}c\r\n")
        #expect(shown(draft) == "a bc\n|")
        draft.insert("ééé")
        #expect(shown(draft) == "a bc\né|")
        #expect(draft.text.utf8.count <= 8)
        draft.insert("x")
        #expect(draft.text == "a bc\néx")
        draft.insert("y")
        #expect(draft.text == "a bc\néx")
    }

    @Test("a blank draft has nothing to send; clear empties it")
    func reply() {
        var draft = ReplyDraft(" \n")
        #expect(draft.reply == nil)
        draft.insert("ok")
        #expect(draft.reply == " \nok")
        draft.clear()
        #expect(draft.isEmpty && draft.cursor == 0)
    }
}
