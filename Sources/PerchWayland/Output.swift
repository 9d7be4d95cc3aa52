import CPerchSupport
import CWaylandClient
import PerchCore

/// A wl_output and what the compositor told about it: its name (for the
/// `output` option), its mode, integer scale and transform, and — with
/// zxdg_output_manager_v1 — its logical size, from which its real scale
/// (1.5, or 2 on a rotated output) follows.
public final class Output {
    /// wl_output *, kept inside the module like every Wayland object.
    let proxy: OpaquePointer
    /// zxdg_output_v1 *, once the manager is bound.
    private var xdgOutput: OpaquePointer?
    public let registryName: UInt32
    public private(set) var name = ""
    /// wl_output.scale: the integer scale clients without fractional scale
    /// draw at (sway rounds 1.5 up to 2 here).
    public private(set) var scale: Int32 = 1
    /// Current mode in buffer pixels, as the hardware scans it out (before
    /// the transform: a portrait output rotated by 90° says 1920×1080).
    public private(set) var modeWidth: Int32 = 0
    public private(set) var modeHeight: Int32 = 0
    /// wl_output.transform (WL_OUTPUT_TRANSFORM_*): 0 normal, 1–3 rotated
    /// by 90°, 180°, 270°, 4–7 the same flipped.
    public private(set) var transform: Int32 = 0
    /// zxdg_output_v1.logical_size: the output's size in surface pixels,
    /// after transform and scale; nil without the protocol or before it
    /// spoke.
    public private(set) var xdgLogicalSize: (width: Int32, height: Int32)?

    /// The compositor withdrew the output (unplugged, disabled): surfaces
    /// on it will get no more frames, and some compositors (sway 1.10)
    /// never close the layer surfaces that were on it.
    public internal(set) var isRemoved = false

    /// Called after the compositor sent a complete update (wl_output.done):
    /// a new mode or scale.
    var onChange: (() -> Void)?

    /// Its power mode, with zwlr_output_power_manager_v1.
    private var power: OutputPower?
    /// Whether the output is powered on: false while it is blanked (DPMS);
    /// true without the protocol, where nobody can tell.
    public var isPoweredOn: Bool { power?.isOn ?? true }

    init(proxy: OpaquePointer, registryName: UInt32) {
        self.proxy = proxy
        self.registryName = registryName
        wl_output_add_listener(proxy, outputListener, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        power = nil
        if let xdgOutput { zxdg_output_v1_destroy(xdgOutput) }
        if wl_output_get_version(proxy) >= 3 {
            wl_output_release(proxy)
        } else {
            wl_output_destroy(proxy)
        }
    }

    /// Asks for the output's logical size (once; the manager may be bound
    /// after the output or before it).
    func watchLogicalSize(with manager: OpaquePointer) {
        guard xdgOutput == nil else { return }
        xdgOutput = zxdg_output_manager_v1_get_xdg_output(manager, proxy)
        zxdg_output_v1_add_listener(xdgOutput, xdgOutputListener, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Follows the output's power mode (once; the manager may be bound
    /// after the output or before it). `onPowerChange` is called at each
    /// change.
    func watchPower(with manager: OpaquePointer, onPowerChange: @escaping () -> Void) {
        guard power == nil else { return }
        let power = OutputPower(manager: manager, output: proxy)
        power.onChange = onPowerChange
        self.power = power
    }

    /// The mode's size as shown, in buffer pixels: width and height swap
    /// when the transform turns the output by 90° or 270°.
    public var transformedModeSize: (width: Int, height: Int) {
        let turned = transform % 2 == 1
        return turned ? (Int(modeHeight), Int(modeWidth)) : (Int(modeWidth), Int(modeHeight))
    }

    /// The output's size in surface pixels: the compositor's logical size
    /// where it says (xdg-output), else the shown mode over the integer
    /// scale. 0 × 0 until the compositor said.
    public var logicalSize: (width: Int, height: Int) {
        if let xdgLogicalSize, xdgLogicalSize.width > 0, xdgLogicalSize.height > 0 {
            return (Int(xdgLogicalSize.width), Int(xdgLogicalSize.height))
        }
        let shown = transformedModeSize, divisor = Int(max(1, scale))
        return (shown.width / divisor, shown.height / divisor)
    }

    /// The output's height in surface pixels; 0 until the compositor said.
    public var logicalHeight: Int { logicalSize.height }

    /// How many buffer pixels of the shown mode make one surface pixel: the
    /// shown width over the logical width, to the nearest 1/120 (the unit
    /// fractional-scale-v1 speaks in; the logical size is rounded to whole
    /// pixels, so the plain ratio can be a little off, e.g. 1920 / 1444 for
    /// 1.33). Without a logical size from the compositor, the integer scale.
    public var realScale: SurfaceScale {
        let shown = transformedModeSize
        guard let xdgLogicalSize, xdgLogicalSize.width > 0, shown.width > 0 else {
            return SurfaceScale(integer: Int(scale))
        }
        let ratio = Double(shown.width) / Double(xdgLogicalSize.width)
        let numerator = Int((ratio * Double(SurfaceScale.denominator)).rounded())
        return numerator % SurfaceScale.denominator == 0
            ? SurfaceScale(integer: numerator / SurfaceScale.denominator) : SurfaceScale(preferred: numerator)
    }

    fileprivate func geometry(transform: Int32) { self.transform = transform }

    fileprivate func mode(flags: UInt32, width: Int32, height: Int32) {
        if flags & WL_OUTPUT_MODE_CURRENT.rawValue != 0 {
            modeWidth = width
            modeHeight = height
        }
    }

    fileprivate func setScale(_ factor: Int32) { scale = max(1, factor) }
    fileprivate func done() { onChange?() }
    fileprivate func setName(_ text: String) { name = text }
    fileprivate func setLogicalSize(width: Int32, height: Int32) { xdgLogicalSize = (width, height) }

    /// zxdg_output_v1.done: version 3 folds it into wl_output.done, but a
    /// compositor with an older manager still ends its updates here.
    fileprivate func xdgDone() {
        guard let xdgOutput, zxdg_output_v1_get_version(xdgOutput) < 3 else { return }
        onChange?()
    }

    /// The Output whose proxy is `proxy`, if it is one of ours.
    static func from(proxy: OpaquePointer?) -> Output? {
        guard let proxy, wl_proxy_get_listener(proxy) == UnsafeRawPointer(outputListener),
              let data = wl_output_get_user_data(proxy) else { return nil }
        return Unmanaged<Output>.fromOpaque(data).takeUnretainedValue()
    }
}

private func owner(_ data: UnsafeMutableRawPointer?) -> Output? {
    data.map { Unmanaged<Output>.fromOpaque($0).takeUnretainedValue() }
}

nonisolated(unsafe) private let outputListener: UnsafeMutablePointer<wl_output_listener> = {
    let listener = UnsafeMutablePointer<wl_output_listener>.allocate(capacity: 1)
    listener.initialize(to: wl_output_listener(
        geometry: { data, _, _, _, _, _, _, _, _, transform in owner(data)?.geometry(transform: transform) },
        mode: { data, _, flags, width, height, _ in owner(data)?.mode(flags: flags, width: width, height: height) },
        done: { data, _ in owner(data)?.done() },
        scale: { data, _, factor in owner(data)?.setScale(factor) },
        name: { data, _, name in owner(data)?.setName(name.map { String(cString: $0) } ?? "") },
        description: { _, _, _ in }))
    return listener
}()

nonisolated(unsafe) private let xdgOutputListener: UnsafeMutablePointer<zxdg_output_v1_listener> = {
    let listener = UnsafeMutablePointer<zxdg_output_v1_listener>.allocate(capacity: 1)
    listener.initialize(to: zxdg_output_v1_listener(
        logical_position: { _, _, _, _ in },
        logical_size: { data, _, width, height in owner(data)?.setLogicalSize(width: width, height: height) },
        done: { data, _ in owner(data)?.xdgDone() },
        name: { _, _, _ in },
        description: { _, _, _ in }))
    return listener
}()
