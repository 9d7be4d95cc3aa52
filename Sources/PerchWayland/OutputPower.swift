import CPerchSupport
import CWaylandClient

/// One zwlr_output_power_v1: whether an output is powered on, as the
/// compositor says when it is made and at every change (DPMS, `swaymsg
/// output NAME dpms off` on sway 1.7, `power off` on 1.10). A powered-off
/// output stays announced — it is not unplugged — but nothing on it is
/// seen, and it sends no frame callbacks. Perch only listens; it never
/// sets a mode.
final class OutputPower {
    /// zwlr_output_power_v1 *.
    private let proxy: OpaquePointer
    /// On until the compositor says otherwise, and again after `failed`
    /// (the object no longer tells, so nothing may wait for it).
    private(set) var isOn = true
    /// Called after each change of `isOn`.
    var onChange: (() -> Void)?

    init(manager: OpaquePointer, output: OpaquePointer) {
        proxy = zwlr_output_power_manager_v1_get_output_power(manager, output)
        zwlr_output_power_v1_add_listener(proxy, powerListener, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        zwlr_output_power_v1_destroy(proxy)
    }

    fileprivate func mode(_ mode: UInt32) {
        set(on: mode != ZWLR_OUTPUT_POWER_V1_MODE_OFF.rawValue)
    }

    fileprivate func failed() { set(on: true) }

    private func set(on: Bool) {
        guard on != isOn else { return }
        isOn = on
        onChange?()
    }
}

// Allocated once, never moves; `data` is the unretained OutputPower, which
// destroys its proxy before it dies.
nonisolated(unsafe) private let powerListener: UnsafeMutablePointer<zwlr_output_power_v1_listener> = {
    func owner(_ data: UnsafeMutableRawPointer?) -> OutputPower? {
        data.map { Unmanaged<OutputPower>.fromOpaque($0).takeUnretainedValue() }
    }
    let listener = UnsafeMutablePointer<zwlr_output_power_v1_listener>.allocate(capacity: 1)
    listener.initialize(to: zwlr_output_power_v1_listener(
        mode: { data, _, mode in owner(data)?.mode(mode) },
        failed: { data, _ in owner(data)?.failed() }))
    return listener
}()
