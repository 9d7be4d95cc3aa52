import CPerchSupport
import CWaylandClient

/// Where a wl_output sits in the layout and how big it is, to size the
/// absolute-motion grid.
final class OutputGeometry {
    let proxy: OpaquePointer
    /// Top-left corner in layout coordinates.
    private(set) var x: Int32 = 0
    private(set) var y: Int32 = 0
    private(set) var transform: Int32 = 0
    /// Current mode, in buffer pixels.
    private(set) var modeWidth: Int32 = 0
    private(set) var modeHeight: Int32 = 0
    private(set) var scale: Int32 = 1

    init(proxy: OpaquePointer) {
        self.proxy = proxy
        wl_output_add_listener(proxy, outputListener, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit { wl_output_destroy(proxy) }

    /// The output's box in layout (logical) pixels. wl_output's scale is an
    /// integer, so with fractional scaling this is off: use --extent then.
    var logicalBox: (x: Int32, y: Int32, width: Int32, height: Int32)? {
        guard modeWidth > 0, modeHeight > 0 else { return nil }
        // Odd transforms (90, 270 and their flipped forms) swap the sides.
        let rotated = transform & 1 == 1
        let width = (rotated ? modeHeight : modeWidth) / scale
        let height = (rotated ? modeWidth : modeHeight) / scale
        return (x, y, width, height)
    }

    fileprivate func geometry(x: Int32, y: Int32, transform: Int32) {
        self.x = x
        self.y = y
        self.transform = transform
    }

    fileprivate func mode(flags: UInt32, width: Int32, height: Int32) {
        if flags & WL_OUTPUT_MODE_CURRENT.rawValue != 0 {
            modeWidth = width
            modeHeight = height
        }
    }

    fileprivate func setScale(_ factor: Int32) { scale = max(1, factor) }
}

// Every member is set: a nil one aborts when its event arrives.
nonisolated(unsafe) private let outputListener: UnsafeMutablePointer<wl_output_listener> = {
    func owner(_ data: UnsafeMutableRawPointer?) -> OutputGeometry? {
        data.map { Unmanaged<OutputGeometry>.fromOpaque($0).takeUnretainedValue() }
    }
    let listener = UnsafeMutablePointer<wl_output_listener>.allocate(capacity: 1)
    listener.initialize(to: wl_output_listener(
        geometry: { data, _, x, y, _, _, _, _, _, transform in
            owner(data)?.geometry(x: x, y: y, transform: transform)
        },
        mode: { data, _, flags, width, height, _ in owner(data)?.mode(flags: flags, width: width, height: height) },
        done: { _, _ in },
        scale: { data, _, factor in owner(data)?.setScale(factor) },
        name: { _, _, _ in },
        description: { _, _, _ in }))
    return listener
}()
