import PerchCore
import Testing

@Suite("markup=strip: tags out, text kept, words in angle brackets kept")
struct MarkupStrippingTests {
    @Test("the tags senders write are taken out", arguments: [
        ("<b>bold</b> <i>it</i> <u>u</u> <s>s</s> <tt>t</tt>", "bold it u s t"),
        (#"<a href="x">link</a><img src="y" alt="z"/>"#, "link"),
        ("<p>p</p><div class='x'>d</div><h2>h</h2><ul><li>l</li></ul>", "pdhl"),
        (#"<font color="red">f</font><span weight='bold'>s</span>"#, "fs"),
        ("one<br>two<br/>three", "one\ntwo\nthree"),
        ("<!-- note -->a&amp;b &hellip;", "a&b …"),
    ])
    func tags(body: String, text: String) {
        #expect(MarkupStripping.strip(body) == text)
    }

    @Test("anything else in angle brackets is text", arguments: [
        "x = <tab>; Press <Enter>", "mail <alice@example.org>", "I <3 you", "a < b && c > d", "<i love you>",
        "unclosed <b", "<html>x</html>",
    ])
    func text(body: String) {
        #expect(MarkupStripping.strip(body) == body)
    }
}
