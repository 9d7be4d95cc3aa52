import CPerchSupport
import CWaylandClient
import Glibc
import PerchPlatform

/// The connection to the compositor, its registry and the globals Perch
/// binds. Serves the display fd from the event loop with the canonical
/// read sequence (prepare_read, flush, poll, read_events or cancel_read,
/// dispatch_pending), so events are never read on another thread and a
/// full socket never blocks the loop.
public final class WaylandConnection {
    // wl_display * and the bound globals (wl_compositor *, …): they stay
    // inside the module, which wraps every request made on them.
    let display: OpaquePointer
    private var registry: OpaquePointer!

    private(set) var compositor: OpaquePointer?
    private(set) var subcompositor: OpaquePointer?
    private(set) var shm: OpaquePointer?
    private(set) var layerShell: OpaquePointer?
    private(set) var viewporter: OpaquePointer?
    // Optional globals of newer compositors; each feature that needs one
    // does without it (see `missingOptionalGlobals`).
    private(set) var fractionalScaleManager: OpaquePointer?
    private(set) var xdgOutputManager: OpaquePointer?
    private(set) var idleNotifier: OpaquePointer?
    private(set) var activation: OpaquePointer?
    private(set) var alphaModifier: OpaquePointer?
    private(set) var cursorShapeManager: OpaquePointer?
    private(set) var foreignToplevelManager: OpaquePointer?
    private(set) var outputPowerManager: OpaquePointer?
    /// The clipboard's managers (ext_data_control_manager_v1 *,
    /// zwlr_data_control_manager_v1 *): ext's is used where both are.
    private var extDataControlManager: OpaquePointer?
    private var wlrDataControlManager: OpaquePointer?
    /// Made on the first copy (`clipboard`).
    private var madeClipboard: Clipboard?
    public private(set) var layerShellVersion: UInt32 = 0
    /// The compositor's windows, where it lists them (for fullscreen, and
    /// to bring a notification's sender forward).
    public private(set) var foreignToplevels: ForeignToplevels?
    /// Every output the compositor announced, by registry name.
    public private(set) var outputs: [UInt32: Output] = [:]
    public private(set) var seats: [UInt32: Seat] = [:]
    /// Whether some seat has a keyboard plugged in.
    public var hasKeyboard: Bool { seats.values.contains { $0.hasKeyboard } }

    /// Called when an output is announced, removed, or changes mode or scale.
    public var onOutputsChanged: (() -> Void)?
    /// Called when an output is powered off or on (blanked, DPMS), and when
    /// one comes or goes: `allOutputsPoweredOff` may have changed.
    public var onPowerChanged: (() -> Void)?
    /// Receive every seat's input events.
    public var onPointerEvent: ((PointerEvent) -> Void)?
    public var onTouchEvent: ((TouchEvent) -> Void)?
    public var onKeyEvent: ((KeyEvent) -> Void)?
    /// Called once when the connection breaks; the caller should exit.
    public var onLost: ((WaylandError) -> Void)?

    /// The newest button press, key press or touch down on our surfaces.
    private var lastInput: (seat: Seat, serial: UInt32)?
    /// xdg-activation token requests waiting for their `done`.
    private var tokenRequests: [ObjectIdentifier: ActivationTokenRequest] = [:]

    private var loopToken: EventLoop.Token?
    /// Given to seats, new ones too, for their keyboards' repeat timers.
    private weak var loop: EventLoop?
    private var readPrepared = false
    private var lost = false

    /// Connects to `WAYLAND_DISPLAY` and binds the globals (two roundtrips:
    /// one for the registry, one for the outputs' and seats' first events).
    public init() throws(WaylandError) {
        guard let name = Environment.value("WAYLAND_DISPLAY"), !name.isEmpty else {
            throw .noDisplayVariable
        }
        guard let display = wl_display_connect(nil) else {
            throw .cannotConnect(display: name, reason: String(cString: strerror(errno)))
        }
        self.display = display
        registry = wl_display_get_registry(display)
        wl_registry_add_listener(registry, registryListener, Unmanaged.passUnretained(self).toOpaque())
        guard wl_display_roundtrip(display) >= 0, wl_display_roundtrip(display) >= 0 else {
            throw .connectionLost("roundtrip failed during start-up")
        }
        for (global, value) in [("wl_compositor", compositor), ("wl_subcompositor", subcompositor),
                                ("wl_shm", shm), ("zwlr_layer_shell_v1", layerShell)] where value == nil {
            throw .missingGlobal(global)
        }
    }

    deinit {
        tokenRequests.removeAll()
        madeClipboard = nil
        if let extDataControlManager { DataControl.ext.destroyManager(extDataControlManager) }
        if let wlrDataControlManager { DataControl.wlr.destroyManager(wlrDataControlManager) }
        foreignToplevels = nil
        outputs.removeAll()
        seats.removeAll()
        for proxy in [fractionalScaleManager, xdgOutputManager, idleNotifier, activation, alphaModifier,
                      cursorShapeManager, foreignToplevelManager, outputPowerManager,
                      viewporter, layerShell, shm, subcompositor, compositor, registry] {
            if let proxy { wl_proxy_destroy(proxy) }
        }
        wl_display_disconnect(display)
    }

    // MARK: Registry events

    fileprivate func global(name: UInt32, interface: String, version: UInt32) {
        func bind(_ wanted: UnsafePointer<wl_interface>, _ maximum: UInt32) -> OpaquePointer? {
            OpaquePointer(wl_registry_bind(registry, name, wanted, min(version, maximum)))
        }
        switch interface {
        case "wl_compositor":
            // v4 for damage_buffer; nothing newer is needed.
            compositor = bind(perch_wl_compositor_interface(), 4)
        case "wl_subcompositor":
            subcompositor = bind(perch_wl_subcompositor_interface(), 1)
        case "wl_shm":
            shm = bind(perch_wl_shm_interface(), 1)
        case "zwlr_layer_shell_v1":
            layerShellVersion = min(version, 4)
            layerShell = bind(perch_zwlr_layer_shell_v1_interface(), 4)
        case "wp_viewporter":
            viewporter = bind(perch_wp_viewporter_interface(), 1)
        case "wp_fractional_scale_manager_v1":
            fractionalScaleManager = bind(perch_wp_fractional_scale_manager_v1_interface(), 1)
        case "zxdg_output_manager_v1":
            // v3: name and description come from wl_output v4 instead.
            xdgOutputManager = bind(perch_zxdg_output_manager_v1_interface(), 3)
            if let xdgOutputManager {
                for output in outputs.values { output.watchLogicalSize(with: xdgOutputManager) }
            }
        case "ext_idle_notifier_v1":
            idleNotifier = bind(perch_ext_idle_notifier_v1_interface(), 1)
        case "xdg_activation_v1":
            activation = bind(perch_xdg_activation_v1_interface(), 1)
        case "wp_alpha_modifier_v1":
            alphaModifier = bind(perch_wp_alpha_modifier_v1_interface(), 1)
        case "wp_cursor_shape_manager_v1":
            cursorShapeManager = bind(perch_wp_cursor_shape_manager_v1_interface(), 1)
            for seat in seats.values { seat.cursorShapeManager = cursorShapeManager }
        case "zwlr_foreign_toplevel_manager_v1":
            // v2 brought the fullscreen state; v3 the parent event.
            guard version >= 2 else { break }
            foreignToplevelManager = bind(perch_zwlr_foreign_toplevel_manager_v1_interface(), 3)
            if let foreignToplevelManager {
                foreignToplevels = ForeignToplevels(manager: foreignToplevelManager,
                                                    outputName: { [unowned self] in self.outputs[$0]?.name })
            }
        case "zwlr_output_power_manager_v1":
            outputPowerManager = bind(perch_zwlr_output_power_manager_v1_interface(), 1)
            if let outputPowerManager {
                for output in outputs.values { watchPower(of: output, with: outputPowerManager) }
            }
        case "ext_data_control_manager_v1":
            extDataControlManager = bind(perch_ext_data_control_manager_v1_interface(), 1)
        case "zwlr_data_control_manager_v1":
            // v2 only adds the primary selection, which Perch leaves alone.
            wlrDataControlManager = bind(perch_zwlr_data_control_manager_v1_interface(), 2)
        case "wl_output":
            if let proxy = bind(perch_wl_output_interface(), 4) {
                let output = Output(proxy: proxy, registryName: name)
                output.onChange = { [unowned self] in self.onOutputsChanged?() }
                if let xdgOutputManager { output.watchLogicalSize(with: xdgOutputManager) }
                if let outputPowerManager { watchPower(of: output, with: outputPowerManager) }
                outputs[name] = output
                onOutputsChanged?()
                onPowerChanged?()
            }
        case "wl_seat":
            if let proxy = bind(perch_wl_seat_interface(), 8) {
                seats[name] = Seat(proxy: proxy, cursorShapeManager: cursorShapeManager,
                                   onPointerEvent: { [unowned self] in self.onPointerEvent?($0) },
                                   onTouchEvent: { [unowned self] in self.onTouchEvent?($0) },
                                   onKeyEvent: { [unowned self] in self.onKeyEvent?($0) },
                                   onSerial: { [unowned self] seat, serial in self.lastInput = (seat, serial) })
                seats[name]?.loop = loop
            }
        default:
            break
        }
    }

    /// The optional protocols this compositor does not offer, each with
    /// what Perch does without it: for one line at start-up with `-v`.
    public var missingOptionalGlobals: [(name: String, without: String)] {
        var missing: [(String, String)] = []
        func note(_ proxy: OpaquePointer?, _ name: String, _ without: String) {
            if proxy == nil { missing.append((name, without)) }
        }
        note(viewporter, "wp_viewporter", "full-size transparent stage buffers; no fractional scale")
        note(fractionalScaleManager, "wp_fractional_scale_manager_v1", "toasts drawn at the integer output scale")
        note(xdgOutputManager, "zxdg_output_manager_v1", "logical output sizes guessed from the mode and scale")
        note(idleNotifier, "ext_idle_notifier_v1", "idle-threshold has no effect")
        note(activation, "xdg_activation_v1", "no ActivationToken before ActionInvoked")
        note(alphaModifier, "wp_alpha_modifier_v1", "fades redraw each frame")
        note(cursorShapeManager, "wp_cursor_shape_manager_v1", "the cursor over a toast is left as it was")
        note(foreignToplevelManager, "zwlr_foreign_toplevel_manager_v1 (v2+)", "fullscreen windows are not noticed")
        note(outputPowerManager, "zwlr_output_power_manager_v1",
             "a blanked screen is not noticed: display timers run on while it is off")
        if extDataControlManager == nil && wlrDataControlManager == nil {
            missing.append(("ext_data_control_manager_v1 or zwlr_data_control_manager_v1",
                            "nothing can be copied to the clipboard (perchctl copy, the c and o keys)"))
        }
        if layerShellVersion < 4 {
            missing.append(("zwlr_layer_shell_v1 v4", "keyboard focus on a toast is taken exclusively while hovered"))
        }
        return missing
    }

    public var offersIdleNotifier: Bool { idleNotifier != nil }

    /// Whether the compositor lets Perch set the clipboard.
    public var offersClipboard: Bool { extDataControlManager != nil || wlrDataControlManager != nil }

    /// The first seat's clipboard, made on first use (nothing is asked of
    /// the compositor before a copy); nil without a data-control protocol
    /// or before the connection is served from a loop.
    public var clipboard: Clipboard? {
        if let madeClipboard { return madeClipboard }
        guard let loop else { return nil }
        let seat = { [unowned self] in self.seats.min(by: { $0.key < $1.key })?.value.proxy }
        if let extDataControlManager {
            madeClipboard = Clipboard(control: .ext, manager: extDataControlManager, seat: seat, loop: loop)
        } else if let wlrDataControlManager {
            madeClipboard = Clipboard(control: .wlr, manager: wlrDataControlManager, seat: seat, loop: loop)
        }
        return madeClipboard
    }

    /// Whether every output is powered off (the screen blanked, DPMS): then
    /// nothing Perch shows can be seen, and the compositor sends no frames.
    /// False with no output at all (a laptop's lid closed with nothing
    /// plugged in is another matter: the outputs are gone, not off) and
    /// without zwlr_output_power_manager_v1.
    public var allOutputsPoweredOff: Bool {
        !outputs.isEmpty && outputs.values.allSatisfy { !$0.isPoweredOn }
    }

    private func watchPower(of output: Output, with manager: OpaquePointer) {
        output.watchPower(with: manager) { [unowned self] in self.onPowerChanged?() }
    }

    /// Tells when the first seat has had no input for `thresholdMilliseconds`;
    /// nil when the compositor offers no ext_idle_notifier_v1 or no seat.
    public func makeIdleMonitor(thresholdMilliseconds: UInt32) -> IdleMonitor? {
        guard let idleNotifier, let seat = seats.min(by: { $0.key < $1.key })?.value else { return nil }
        return IdleMonitor(notifier: idleNotifier, seat: seat.proxy, thresholdMilliseconds: thresholdMilliseconds)
    }

    fileprivate func globalRemoved(name: UInt32) {
        if let output = outputs.removeValue(forKey: name) {
            output.isRemoved = true
            onOutputsChanged?()
            onPowerChanged?()
        }
        if let seat = seats.removeValue(forKey: name), lastInput?.seat === seat { lastInput = nil }
    }

    // MARK: Cursor and activation

    /// The cursor over our surfaces: the arrow over a toast, a hand over
    /// a button. Without wp_cursor_shape_v1 this does nothing.
    public func setCursorShape(_ shape: CursorShape) {
        for seat in seats.values { seat.setCursorShape(shape) }
    }

    /// Asks the compositor for an xdg-activation token made from the
    /// user's last press (button, key or touch) on `surface`, so that the
    /// program whose action was invoked may raise its window. `done` gets
    /// the token, or nil when there is none to be had: no xdg_activation_v1
    /// or no input yet (it is then called at once). The compositor's answer
    /// comes a round trip later; the caller bounds how long it waits.
    public func requestActivationToken(surface: ToastSurface?, done: @escaping (String?) -> Void) {
        guard let activation, let lastInput, let token = xdg_activation_v1_get_activation_token(activation) else {
            return done(nil)
        }
        let request = ActivationTokenRequest(proxy: token) { [unowned self] request, value in
            self.tokenRequests.removeValue(forKey: ObjectIdentifier(request))
            done(value)
        }
        tokenRequests[ObjectIdentifier(request)] = request
        xdg_activation_token_v1_set_serial(token, lastInput.serial, lastInput.seat.proxy)
        if let surface { xdg_activation_token_v1_set_surface(token, surface.inputTarget) }
        xdg_activation_token_v1_commit(token)
    }

    /// Brings the compositor's window `key` (`OpenWindow.key`) forward
    /// for the seat of the user's last press (the first seat before any):
    /// wlr-foreign-toplevel-management's `activate`. False when there is
    /// no such window, no seat, or the compositor lists no windows.
    @discardableResult
    public func activateWindow(_ key: UInt32) -> Bool {
        guard let foreignToplevels,
              let seat = lastInput?.seat ?? seats.min(by: { $0.key < $1.key })?.value else { return false }
        return foreignToplevels.activate(key, seat: seat)
    }

    // MARK: Event loop integration

    public var fileDescriptor: Int32 { wl_display_get_fd(display) }

    /// Serves the display from `loop`.
    public func attach(to loop: EventLoop) {
        self.loop = loop
        for seat in seats.values { seat.loop = loop }
        loopToken = loop.add(fd: fileDescriptor, events: Int16(POLLIN)) { [unowned self] revents in
            self.handleReady(revents, loop: loop)
        }
        loop.addPrePollHook(.flush) { [unowned self] in self.prepareForPoll(loop: loop) }
        loop.addPostPollHook { [unowned self] in self.finishPoll() }
    }

    private func prepareForPoll(loop: EventLoop) {
        guard !lost else { return }
        // Events already queued must be dispatched before we may read more.
        while wl_display_prepare_read(display) != 0 {
            if wl_display_dispatch_pending(display) < 0 { return fail() }
        }
        readPrepared = true
        // Send our requests; if the socket is full, wait for POLLOUT rather
        // than blocking.
        if wl_display_flush(display) < 0 {
            if errno == EAGAIN {
                if let loopToken { loop.setEvents(loopToken, Int16(POLLIN | POLLOUT)) }
            } else if errno != EPIPE {
                // EPIPE: the compositor is gone; read_events reports it.
                return fail()
            }
        } else if let loopToken {
            loop.setEvents(loopToken, Int16(POLLIN))
        }
    }

    private func handleReady(_ revents: Int16, loop: EventLoop) {
        guard !lost, readPrepared else { return }
        if revents & Int16(POLLIN | POLLERR | POLLHUP) != 0 {
            readPrepared = false
            if wl_display_read_events(display) < 0 { return fail() }
        }
    }

    private func finishPoll() {
        guard !lost else { return }
        if readPrepared {
            wl_display_cancel_read(display)
            readPrepared = false
        }
        if wl_display_dispatch_pending(display) < 0 { fail() }
    }

    private func fail() {
        guard !lost else { return }
        lost = true
        if readPrepared {
            wl_display_cancel_read(display)
            readPrepared = false
        }
        onLost?(.connectionLost(describeError()))
    }

    private func describeError() -> String {
        let code = wl_display_get_error(display)
        if code == EPROTO {
            var interface: UnsafePointer<wl_interface>?
            var id: UInt32 = 0
            let protocolCode = wl_display_get_protocol_error(display, &interface, &id)
            let name = interface.map { String(cString: $0.pointee.name) } ?? "unknown interface"
            return "protocol error \(protocolCode) on \(name)@\(id)"
        }
        if code == EPIPE || code == ECONNRESET || code == 0 {
            return "the compositor closed the connection"
        }
        return String(cString: strerror(code))
    }

    /// Sends pending requests now (used before blocking operations and at exit).
    public func flush() {
        _ = wl_display_flush(display)
    }
}

// The registry listener: allocated once, never moves; `data` is the
// unretained WaylandConnection, which destroys the registry before it dies.
nonisolated(unsafe) private let registryListener: UnsafeMutablePointer<wl_registry_listener> = {
    let listener = UnsafeMutablePointer<wl_registry_listener>.allocate(capacity: 1)
    listener.initialize(to: wl_registry_listener(
        global: { data, _, name, interface, version in
            guard let data, let interface else { return }
            Unmanaged<WaylandConnection>.fromOpaque(data).takeUnretainedValue()
                .global(name: name, interface: String(cString: interface), version: version)
        },
        global_remove: { data, _, name in
            guard let data else { return }
            Unmanaged<WaylandConnection>.fromOpaque(data).takeUnretainedValue().globalRemoved(name: name)
        }))
    return listener
}()
