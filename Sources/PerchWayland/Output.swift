import CPerchSupport
import CWaylandClient

/// A wl_output and what the compositor told about it. Perch needs its
/// integer scale (to render sharp toasts) and its name (to follow the
/// `output` option later).
public final class Output {
    /// wl_output *, kept inside the module like every Wayland object.
    let proxy: OpaquePointer
    public let registryName: UInt32
    public private(set) var name = ""
    public private(set) var scale: Int32 = 1
    /// Current mode in buffer pixels.
    public private(set) var modeWidth: Int32 = 0
    public private(set) var modeHeight: Int32 = 0

    /// The compositor withdrew the output (unplugged, disabled): surfaces
    /// on it will get no more frames, and some compositors (sway 1.10)
    /// never close the layer surfaces that were on it.
    public internal(set) var isRemoved = false

    /// Called after the compositor sent a complete update (wl_output.done):
    /// a new mode or scale.
    var onChange: (() -> Void)?

    init(proxy: OpaquePointer, registryName: UInt32) {
        self.proxy = proxy
        self.registryName = registryName
        wl_output_add_listener(proxy, outputListener, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        if wl_output_get_version(proxy) >= 3 {
            wl_output_release(proxy)
        } else {
            wl_output_destroy(proxy)
        }
    }

    /// The output's height in surface pixels (mode height over scale); 0
    /// until the compositor said.
    public var logicalHeight: Int { Int(modeHeight / max(1, scale)) }

    fileprivate func mode(flags: UInt32, width: Int32, height: Int32) {
        if flags & WL_OUTPUT_MODE_CURRENT.rawValue != 0 {
            modeWidth = width
            modeHeight = height
        }
    }

    fileprivate func setScale(_ factor: Int32) { scale = max(1, factor) }
    fileprivate func done() { onChange?() }
    fileprivate func setName(_ text: String) { name = text }

    /// The Output whose proxy is `proxy`, if it is one of ours.
    static func from(proxy: OpaquePointer?) -> Output? {
        guard let proxy, wl_proxy_get_listener(proxy) == UnsafeRawPointer(outputListener),
              let data = wl_output_get_user_data(proxy) else { return nil }
        return Unmanaged<Output>.fromOpaque(data).takeUnretainedValue()
    }
}

nonisolated(unsafe) private let outputListener: UnsafeMutablePointer<wl_output_listener> = {
    func owner(_ data: UnsafeMutableRawPointer?) -> Output? {
        data.map { Unmanaged<Output>.fromOpaque($0).takeUnretainedValue() }
    }
    let listener = UnsafeMutablePointer<wl_output_listener>.allocate(capacity: 1)
    listener.initialize(to: wl_output_listener(
        geometry: { _, _, _, _, _, _, _, _, _, _ in },
        mode: { data, _, flags, width, height, _ in owner(data)?.mode(flags: flags, width: width, height: height) },
        done: { data, _ in owner(data)?.done() },
        scale: { data, _, factor in owner(data)?.setScale(factor) },
        name: { data, _, name in owner(data)?.setName(name.map { String(cString: $0) } ?? "") },
        description: { _, _, _ in }))
    return listener
}()
