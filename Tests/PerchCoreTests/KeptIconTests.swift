import PerchCore
import Testing

@Suite("Kept icons: what is kept, the names of copies, the byte budget")
struct KeptIconTests {
    private func notification(icon: String?, image: Bool = false) -> Notification {
        var notification = Notification(id: 7, title: "t", iconPath: icon)
        if image { notification.image = ToastImage(width: 1, height: 1, rgba: [0, 0, 0, 255]) }
        return notification
    }

    @Test("a file path or file:// URI is kept; a theme name, image-data or a symbolic icon is not")
    func whatIsKept() {
        #expect(KeptIcon.file(of: notification(icon: "/tmp/.org.chromium.Chromium.x1")) == "/tmp/.org.chromium.Chromium.x1")
        #expect(KeptIcon.file(of: notification(icon: "file:///tmp/a%20b.png")) == "/tmp/a b.png")
        #expect(KeptIcon.file(of: notification(icon: "dialog-information")) == nil)
        #expect(KeptIcon.file(of: notification(icon: nil)) == nil)
        #expect(KeptIcon.file(of: notification(icon: "")) == nil)
        #expect(KeptIcon.file(of: notification(icon: "/tmp/a.png", image: true)) == nil)
        #expect(KeptIcon.file(of: notification(icon: "/usr/share/icons/x/go-next-symbolic.svg")) == nil)
        #expect(KeptIcon.file(of: notification(icon: "https://example.org/a.png")) == nil)
    }

    @Test("a copy's name holds its id and its path's checksum, and only such names are read back")
    func names() {
        let name = KeptIcon.fileName(id: 42, iconPath: "/tmp/a.png")
        #expect(name.hasPrefix("42-") && name.hasSuffix(".png") && name.count == "42-".count + 8 + 4)
        #expect(KeptIcon.fileName(id: 42, iconPath: "/tmp/b.png") != name)
        #expect(KeptIcon.id(ofFileName: name) == 42)
        #expect(KeptIcon.id(ofFileName: KeptIcon.fileName(id: UInt32.max, iconPath: "/x")) == UInt32.max)
        for other in ["42.png", "42-0000000.png", "42-0000000g.png", "42-0000000A.png", "0-00000000.png",
                      "042-00000000.png", "-00000000.png", "99999999999-00000000.png", "42-00000000.png.tmp-3",
                      ".42-00000000.png.tmp-3", "42-00000000.jpg", "x-00000000.png"] {
            #expect(KeptIcon.id(ofFileName: other) == nil, "\(other)")
        }
    }

    @Test("the budget evicts the oldest kept first, and refuses one larger than all of it")
    func budget() {
        var budget = KeptIconBudget<UInt32>(byteLimit: 100)
        #expect(budget.admit(1, bytes: 40).isEmpty)
        #expect(budget.admit(2, bytes: 40).isEmpty)
        #expect(budget.admit(3, bytes: 40) == [1])
        #expect(budget.bytes == 80 && budget.count == 2)
        // Kept again: it is the newest now.
        #expect(budget.admit(2, bytes: 10).isEmpty)
        #expect(budget.admit(4, bytes: 60) == [3])
        #expect(Set(budget.all) == [2, 4] && budget.bytes == 70)
        #expect(budget.admit(5, bytes: 101) == [5])
        #expect(!budget.contains(5) && budget.bytes == 70)
        budget.remove(2)
        budget.remove(9)
        #expect(budget.bytes == 60 && budget.count == 1)
    }
}
