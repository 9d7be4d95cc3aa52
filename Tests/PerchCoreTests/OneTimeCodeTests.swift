import Testing
@testable import PerchCore

@Suite("The one-time code in a notification's text")
struct OneTimeCodeTests {
    /// Bodies as services send them, and the code a user types.
    static let found: [(String, String)] = [
        ("Your verification code is 482913", "482913"),
        ("G-123456 is your Google verification code.", "G-123456"),
        ("Use 1234567 as Microsoft account security code", "1234567"),
        ("123456 is your Amazon OTP. Do not share it with anyone.", "123456"),
        ("Your WhatsApp code: 123-456. Don't share this code with others", "123-456"),
        ("Telegram code: 54321. Do not give this code to anyone, even if they say they are from Telegram!",
         "54321"),
        ("Your Uber code: 4827. Never share this code.", "4827"),
        ("PayPal: Your security code is: 739201. Your code expires in 10 minutes.", "739201"),
        ("Your one-time passcode is 847 291", "847 291"),
        ("Your PIN is 0815", "0815"),
        ("Your Steam Guard code: XKPMQ", "XKPMQ"),
        ("Slack confirmation code: XQP-7K2", "XQP-7K2"),
        ("2FA code: 905512 (valid for 5 minutes)", "905512"),
        ("Ihr Bestätigungscode lautet 381920", "381920"),
        ("Ihre mTAN für die Überweisung an Max Mustermann über 100,00 EUR lautet: 482913", "482913"),
        ("Tu código de verificación de WhatsApp es 123-456", "123-456"),
        ("Votre code de vérification est 662811", "662811"),
        ("Din engangskode er 4821", "4821"),
        ("Twój kod weryfikacyjny to 771234", "771234"),
        ("Vahvistuskoodisi on 553311", "553311"),
        ("Ваш код подтверждения: 123456", "123456"),
        ("【支付宝】验证码826471，您正在进行身份验证", "826471"),
        ("認証コード：123456", "123456"),
        ("인증번호 [123456]을 입력해주세요", "123456"),
        ("Your code 4711 expires on 05.01.2025", "4711"),
        ("Your login code is k3j9x2", "k3j9x2"),
        ("Verification: 7788 — enter it in the app", "7788"),
        ("Your Apple ID Code is: 123456. Don't share it with anyone.", "123456"),
        // A code to type, if not a one-time one.
        ("Use code SAVE20 for 20% off", "SAVE20"),
        ("Log in with code 482913", "482913"),
    ]

    /// Texts with numbers, or with the words, and no code to type.
    static let none: [String] = [
        "Meeting at 10:30 in room 4.12",
        "Build passed for commit 3F2A1B9",
        "Your code review is ready",
        "PIN changed successfully",
        "Windows Update failed with error code 0x80070005",
        "The process exited with code 1234",
        "Merge request !1234: fix code style",
        "Send the package to zip code 90210",
        "Your order 12345678 has shipped",
        "Battery at 15%",
        "Password changed on 2024-05-01",
        "Your code is ready",
        "code",
        "",
    ]

    @Test("finds the code as the body shows it", arguments: found)
    func finds(text: String, code: String) {
        #expect(OneTimeCode.find(in: text) == code)
    }

    @Test("finds nothing where there is no code to type", arguments: none)
    func findsNothing(text: String) {
        #expect(OneTimeCode.find(in: text) == nil)
    }

    @Test("the token nearest the keyword wins, one after it when two are as near")
    func nearest() {
        #expect(OneTimeCode.find(in: "Order 5555 shipped. Your code is 1234, reference 9999") == "1234")
        #expect(OneTimeCode.find(in: "1111 is your code 2222") == "2222")
    }

    @Test("a code has 4 to 10 letters and digits; a date or a card number is none")
    func lengths() {
        #expect(OneTimeCode.find(in: "code 123") == nil)
        #expect(OneTimeCode.find(in: "code 1234567890") == "1234567890")
        #expect(OneTimeCode.find(in: "code 12345678901") == nil)
        #expect(OneTimeCode.find(in: "code 2024-05-01") == nil)
        #expect(OneTimeCode.find(in: "code 1234 5678 9012") == nil)
    }

    @Test("a code whose last character takes a mark is not the code the body shows")
    func marks() {
        #expect(OneTimeCode.find(in: "Код:Opt1\u{341}") == nil)
        #expect(OneTimeCode.find(in: "code: 1234\u{FE0F}") == nil)
        #expect(OneTimeCode.find(in: "code: 1234\u{301} 5678") == "5678")
    }

    @Test("a long hostile text is read in one bounded pass")
    func bounded() {
        let text = String(repeating: "code 12 code ", count: 5_000) + "code 987654"
        #expect(OneTimeCode.find(in: text) == "987654")
        #expect(OneTimeCode.find(in: String(repeating: "1", count: 65_536)) == nil)
    }
}

@Suite("A body as plain text for the clipboard")
struct CopyTextTests {
    @Test("markup goes, entities are read, line breaks stay, controls and bidi overrides go")
    func plain() {
        #expect(CopyText.plain("<b>Hi</b> &amp; welcome<br>line two", markup: true) == "Hi & welcome\nline two")
        #expect(CopyText.plain("a < b && c > d", markup: false) == "a < b && c > d")
        #expect(CopyText.plain("  x\u{7}y\u{202E}z\tw \n", markup: false) == "xyz\tw")
    }
}
