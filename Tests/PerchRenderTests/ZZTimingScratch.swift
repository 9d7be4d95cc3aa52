import PerchCore
import PerchRender
import Testing
import Glibc

@Test func zzTimingScratch() {
    let r = makeRenderer()
    let style = ToastStyle()
    let labels = ["Reply", "Mark as read", "Archive", "Snooze 10 minutes", "Open", "Mute"]
    let c = ToastContent(title: "Grace Hopper", body: "Found the bug: a moth in relay 70.", buttons: labels.map { NotificationAction(id: $0, label: $0) })
    let plain = ToastContent(title: "Grace Hopper", body: "Found the bug: a moth in relay 70.")
    for (name, content) in [("buttons", c), ("plain", plain)] {
        let g = r.geometry(for: content, style: style)
        let canvas = Canvas(width: style.width * 2, height: g.height * 2)
        var t0 = timespec(); clock_gettime(CLOCK_MONOTONIC, &t0)
        for i in 0..<200 { r.draw(content, style: style, geometry: g, into: canvas.target, scale: 2, highlight: ButtonHighlight(hovered: i % 2 == 0 ? "Open" : nil)) }
        var t1 = timespec(); clock_gettime(CLOCK_MONOTONIC, &t1)
        print("TIMING \(name): \(Double(t1.tv_sec - t0.tv_sec) * 1e6 / 200 + Double(t1.tv_nsec - t0.tv_nsec) / 1e3 / 200) us per draw at scale 2")
    }
}
