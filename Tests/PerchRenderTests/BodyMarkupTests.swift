import CPangoCairo
import PerchCore
@testable import PerchMarkup
import Testing

@Suite("Bodies as apps write them, into markup Pango accepts")
struct BodyMarkupTests {
    @Test("the issue's body: unclosed tags closed, entities read, the link as text, the image out")
    func theIssuesBody() {
        let body = #"<b>unclosed bold &nbsp; &amp; &lt; <a href="javascript:alert(1)">click</a> <img src="/etc/passwd"/> <i>it"#
        let markup = BodyMarkup.pangoMarkup(body)
        #expect(markup == "<b>unclosed bold \u{A0} &amp; &lt; click  <i>it</i></b>")
        guard case .parsed(let text, let attributes) = Markup.parse(markup) else {
            Issue.record("Pango rejected \(markup)")
            return
        }
        pango_attr_list_unref(attributes)
        #expect(text == "unclosed bold \u{A0} & < click  it")
    }

    @Test("named entities become their characters", arguments: [
        ("&nbsp;", "\u{A0}"), ("&hellip;", "…"), ("&mdash;", "—"), ("&ndash;", "–"), ("&copy;", "©"),
        ("&reg;", "®"), ("&trade;", "™"), ("&laquo;", "«"), ("&raquo;", "»"), ("&lsquo;", "‘"), ("&rsquo;", "’"),
        ("&ldquo;", "“"), ("&rdquo;", "”"), ("&bull;", "•"), ("&middot;", "·"), ("&euro;", "€"), ("&pound;", "£"),
        ("&yen;", "¥"), ("&cent;", "¢"), ("&deg;", "°"), ("&plusmn;", "±"), ("&times;", "×"), ("&divide;", "÷"),
        ("&frac12;", "½"), ("&para;", "¶"), ("&sect;", "§"), ("&eacute;", "é"), ("&Eacute;", "É"),
        ("&yuml;", "ÿ"), ("&szlig;", "ß"), ("&Omega;", "Ω"), ("&sigmaf;", "ς"), ("&omega;", "ω"),
        ("&rarr;", "→"), ("&ne;", "≠"), ("&hearts;", "♥"), ("&check;", "✓"), ("&lang;", "⟨"),
    ])
    func named(entity: String, character: String) {
        #expect(BodyMarkup.pangoMarkup("a\(entity)b") == "a\(character)b")
    }

    @Test("every Latin-1 letter has its name, in order")
    func latin1() {
        #expect(HTMLEntities.scalar(named: "nbsp") == "\u{A0}")
        #expect(HTMLEntities.scalar(named: "Agrave") == "\u{C0}")
        #expect(HTMLEntities.scalar(named: "times") == "\u{D7}")
        #expect(HTMLEntities.scalar(named: "divide") == "\u{F7}")
        #expect(HTMLEntities.scalar(named: "yuml") == "\u{FF}")
        #expect(HTMLEntities.scalar(named: "Rho") == "\u{3A1}")
        #expect(HTMLEntities.scalar(named: "Sigma") == "\u{3A3}")
    }

    @Test("the five XML entities stay escaped; & < > in text are escaped", arguments: [
        ("&amp; &lt; &gt; &quot; &apos;", "&amp; &lt; &gt; \" '"),
        ("fish & chips", "fish &amp; chips"),
        ("1 < 2 > 0", "1 &lt; 2 &gt; 0"),
        ("&bogus; &amp", "&amp;bogus; &amp;amp"),
        ("& ; &#; &#x; &#12", "&amp; ; &amp;#; &amp;#x; &amp;#12"),
        ("AT&T's", "AT&amp;T's"),
    ])
    func escaped(body: String, markup: String) {
        #expect(BodyMarkup.pangoMarkup(body) == markup)
    }

    @Test("numeric references become characters; invalid ones are dropped", arguments: [
        ("&#65;&#x42;&#X43;&#0000068;", "ABCD"),
        ("&#8212;&#x2014;", "——"),
        ("&#150;&#146;&#128;", "–’€"),  // read as Windows-1252, as HTML does
        ("a&#0;b", "ab"),
        ("a&#xD800;b&#xDFFF;c", "abc"),
        ("a&#x110000;b&#99999999999999999999;c", "abc"),
        ("a&#xFFFE;b&#xFFFF;c&#xFDD0;d&#x10FFFF;e", "abcde"),
        ("a&#1;b&#x7F;c&#x81;d", "abcd"),
        ("tab&#9;nl&#10;", "tab\tnl\n"),
        ("&#38;&#60;&#62;", "&amp;&lt;&gt;"),
    ])
    func numeric(body: String, markup: String) {
        #expect(BodyMarkup.pangoMarkup(body) == markup)
    }

    @Test("tags: kept, mapped, taken out with their text kept", arguments: [
        (#"<a href="x">link</a>"#, "link"),
        (#"<A HREF="x">link</A>"#, "link"),
        (#"x<img src="y"/>z"#, "xz"),
        (#"x<img src='y' alt="z">z"#, "xz"),
        (#"<a href="u?a=1&b=2">go</a>"#, "go"),
        (#"<a href="a>b">x</a>"#, "x"),
        ("<B>bold</B>", "<b>bold</b>"),
        ("<strong>s</strong> <em>e</em> <del>d</del> <code>c</code>", "<b>s</b> <i>e</i> <s>d</s> <tt>c</tt>"),
        ("<p>para</p><div class=x>div</div><h1>t</h1>", "paradivt"),
        ("line<br>two<br/>three", "line\ntwo\nthree"),
        ("<!-- a <b> comment --> text", " text"),
        ("<!DOCTYPE html><?xml x?>t", "t"),
        ("open <!-- to the end", "open "),
        ("<b/>empty", "empty"),
        ("</b>stray close", "stray close"),
        ("x <a y", "x &lt;a y"),
        ("a <3 b", "a &lt;3 b"),
        ("< b >", "&lt; b &gt;"),
    ])
    func tags(body: String, markup: String) {
        #expect(BodyMarkup.pangoMarkup(body) == markup)
    }

    @Test("every tag family senders write is read as a tag", arguments: [
        ("<b>b</b><i>i</i><u>u</u><s>s</s><tt>t</tt>", "<b>b</b><i>i</i><u>u</u><s>s</s><tt>t</tt>"),
        ("<sub>1</sub><sup>2</sup><small>3</small><big>4</big>", "<sub>1</sub><sup>2</sup><small>3</small><big>4</big>"),
        ("<strong>a</strong><em>b</em><code>c</code><kbd>d</kbd>", "<b>a</b><i>b</i><tt>c</tt><tt>d</tt>"),
        (#"<a href="https://x.org/?a=1">l</a><img src="x.png" alt="y"/>"#, "l"),
        ("1<br>2<br/>3<BR />4", "1\n2\n3\n4"),
        ("<p>p</p><div>d</div><pre>r</pre><blockquote>q</blockquote><hr>", "pdrq"),
        ("<ul><li>1</li></ul><ol><li>2</li></ol>", "12"),
        ("<h1>1</h1><h2>2</h2><h3>3</h3><h4>4</h4><h5>5</h5><h6>6</h6>", "123456"),
        (#"<font color="red" face=serif>f</font>"#, "f"),
        ("<span>s</span></span >", "<span>s</span>"),
        ("<B>x</B><Strong>y</STRONG>", "<b>x</b><b>y</b>"),
    ])
    func tagFamilies(body: String, markup: String) {
        #expect(BodyMarkup.pangoMarkup(body) == markup)
    }

    @Test("words in angle brackets are text", arguments: [
        ("x = <tab>;", "x = &lt;tab&gt;;"),
        ("Press <Enter> to go", "Press &lt;Enter&gt; to go"),
        ("mail <alice@example.org>", "mail &lt;alice@example.org&gt;"),
        ("<https://example.org/a>", "&lt;https://example.org/a&gt;"),
        ("I <3 you", "I &lt;3 you"),
        ("a < b && c > d", "a &lt; b &amp;&amp; c &gt; d"),
        ("<i love you>", "&lt;i love you&gt;"),
        ("<b.org> and <a@b.c>", "&lt;b.org&gt; and &lt;a@b.c&gt;"),
        ("</tab> <!foo> <?php ?>", "&lt;/tab&gt; &lt;!foo&gt; &lt;?php ?&gt;"),
        ("<html><body>x</body></html>", "&lt;html&gt;&lt;body&gt;x&lt;/body&gt;&lt;/html&gt;"),
        ("Ctrl+<b>X</b> or <Ctrl+X>", "Ctrl+<b>X</b> or &lt;Ctrl+X&gt;"),
    ])
    func lookAlikes(body: String, markup: String) {
        #expect(BodyMarkup.pangoMarkup(body) == markup)
        guard case .parsed(let text, let attributes) = Markup.parse(markup) else {
            Issue.record("Pango rejected \(markup)")
            return
        }
        pango_attr_list_unref(attributes)
        #expect(!text.isEmpty)
    }

    @Test("a body of tags that never end is read in one pass", arguments: [#"<b a=""#, #"<b a=">" "#, "<b a=1 "])
    func unclosedQuotes(_ piece: String) {
        let body = String(repeating: piece, count: 20_000)
        let markup = BodyMarkup.pangoMarkup(body)
        #expect(markup.utf8.count <= BodyMarkup.outputLimit(forBytes: body.utf8.count))
        #expect(!markup.contains("<b"))
    }

    @Test("span keeps its attributes, read and quoted again; others lose theirs", arguments: [
        ("<span foreground='red'>r</span>", #"<span foreground="red">r</span>"#),
        ("<span FOREGROUND=red weight=bold>r</span>", #"<span foreground="red" weight="bold">r</span>"#),
        (#"<span font="a&amp;b &quot;c&quot;">r</span>"#, #"<span font="a&amp;b &quot;c&quot;">r</span>"#),
        ("<span x y=1 y=2 1z=3>r</span>", #"<span y="1">r</span>"#),
        ("<b class='x'>b</b>", "<b>b</b>"),
        (#"<b title="never closed>b"#, "<b>b</b>"),
    ])
    func attributes(body: String, markup: String) {
        #expect(BodyMarkup.pangoMarkup(body) == markup)
    }

    @Test("misnested tags are closed and opened again; open ones are closed at the end", arguments: [
        ("<b><i>x</b>y</i>", "<b><i>x</i></b><i>y</i>"),
        ("<b>a<i>b<u>c</b>d</u>e</i>", "<b>a<i>b<u>c</u></i></b><i><u>d</u>e</i>"),
        ("<i><b>x</i>", "<i><b>x</b></i>"),  // b opened again, but empty: left out
        ("<b></b>x<i><u></u></i>", "x"),
        ("<span color='red'><b>x</span>y</b>", #"<span color="red"><b>x</b></span><b>y</b>"#),
    ])
    func nesting(body: String, markup: String) {
        #expect(BodyMarkup.pangoMarkup(body) == markup)
    }

    @Test("nesting past the maximum keeps the text, not the tags")
    func deepNesting() {
        let body = String(repeating: "<b>", count: 1000) + "deep"
        let markup = BodyMarkup.pangoMarkup(body)
        #expect(markup == String(repeating: "<b>", count: BodyMarkup.maximumDepth) + "deep"
                + String(repeating: "</b>", count: BodyMarkup.maximumDepth))
    }

    @Test("the output is bounded however the body misnests")
    func bounded() {
        // Each close is of the outermost tag but one, which opens the others
        // (a long span among them) again, and goes on top: the next close
        // does the same. Unbounded, 4500 closes would write 1.4 MB.
        let names = ["b", "i", "u", "s", "tt", "sub", "sup", "small", "big"]
        let body = names.map { "<\($0)>" }.joined() + "<span font='\(String(repeating: "x", count: 200))'>"
            + String(repeating: names.map { "</\($0)>t<\($0)>" }.joined(), count: 500)
        let markup = BodyMarkup.pangoMarkup(body)
        #expect(markup.utf8.count <= BodyMarkup.outputLimit(forBytes: body.utf8.count))
        #expect(markup.utf8.count > 4 * body.utf8.count, "opened again while the bound allowed")
        if case .parsed(_, let attributes) = Markup.parse(markup) { pango_attr_list_unref(attributes) } else {
            Issue.record("the bounded markup should still parse")
        }
    }

    @Test("text with nothing to read comes back as it is, non-ASCII included")
    func unchanged() {
        for body in ["", "plain text", "héllo wörld 🎉", "quotes \" and ' stay"] {
            #expect(BodyMarkup.pangoMarkup(body) == body)
        }
        #expect(BodyMarkup.pangoMarkup(#"héllo <a href="ü">wörld</a> 🎉"#) == "héllo wörld 🎉")
        #expect(BodyMarkup.pangoMarkup("nul\u{0}byte") == "nulbyte", "Pango would stop at a NUL")
    }

    @Test("the fallback text and the spans taken out")
    func fallbacks() {
        let markup = BodyMarkup.pangoMarkup(#"<b>a &amp; b</b> <span foreground="x&quot;>">c &lt; d</span>"#)
        #expect(BodyMarkup.text(ofMarkup: markup) == "a & b c < d")
        #expect(BodyMarkup.withoutSpans(markup) == "<b>a &amp; b</b> c &lt; d")
        #expect(BodyMarkup.withoutSpans("<spanner>x</spanner>") == "<spanner>x</spanner>")
    }
}
