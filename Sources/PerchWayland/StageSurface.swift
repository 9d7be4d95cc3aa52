import CPerchSupport
import CWaylandClient
import PerchCore
import PerchPlatform

/// The layer surface that holds a stack of toasts: a column as wide as a
/// toast, stretched along the output's height (anchored to the top and
/// bottom edges), fully transparent and with an empty input region, so
/// clicks between toasts reach the windows below. Toasts are its
/// subsurfaces; their positions apply when the stage commits, so every
/// animated frame is one stage commit.
public final class StageSurface {
    let surface: OpaquePointer
    private let layerSurface: OpaquePointer
    private let connection: WaylandConnection
    private var viewport: OpaquePointer?
    /// wp_fractional_scale_v1, where the compositor offers it (and
    /// wp_viewporter, which shows the toasts' exact-scale buffers).
    private var fractionalScale: OpaquePointer?
    /// The last preferred_scale, in 120ths; nil before the first.
    private var preferredScale: Int?
    private var content: ShmBuffer?
    private var frameCallback: OpaquePointer?
    /// Outputs the stage is shown on (wl_surface.enter/leave).
    private var enteredOutputs: [ObjectIdentifier: Output] = [:]
    /// The output it was made for; nil = the compositor's choice.
    public let requestedOutput: Output?
    /// Whether it was ever shown on an output.
    private var hasEntered = false

    /// Size from the last configure, surface pixels; nil before the first.
    public private(set) var size: (width: Int, height: Int)?
    /// The scale toasts should be drawn at. With wp_fractional_scale_v1,
    /// the compositor's preferred scale for the stage (1.5 exactly), told
    /// for the stage rather than each toast: the stage is mapped before any
    /// toast is drawn, so its toasts are drawn once at the right scale
    /// instead of at a guess and again when their own surface is told; and
    /// a toast is always on its stage's output. Without the protocol, the
    /// largest integer scale of the outputs the stage is on. Before the
    /// compositor says either (it can only once the stage is mapped, after
    /// toasts may have been drawn for its first configure), the scale of
    /// the output the stage is for — or of every output, when they agree —
    /// so that those toasts are not drawn twice.
    public private(set) var scale = SurfaceScale.one

    public var onConfigure: (() -> Void)?
    public var onClosed: (() -> Void)?
    public var onScaleChanged: (() -> Void)?
    /// The frame callback fired, with its timestamp: milliseconds on the
    /// compositor's clock (CLOCK_MONOTONIC for wlroots), wrapping at 2³².
    public var onFrame: ((UInt32) -> Void)?

    /// What the stage covers.
    public enum Placement {
        /// A column as wide as a toast, along the output's height, at the
        /// anchor's side (or centred).
        case column(Anchor, width: Int)
        /// The whole output (banners run across its top).
        case fullOutput
    }

    /// - Parameters:
    ///   - output: the output to show on; nil lets the compositor choose
    ///     (the focused one).
    /// - Parameters:
    ///   - acceptsInput: the whole surface takes pointer and touch input
    ///   (the center's panel); a stack's stage takes none, so that clicks
    ///   between toasts reach the windows below.
    ///   - namespace: what the compositor's layer rules know it by.
    public init(connection: WaylandConnection, output: Output?, placement: Placement, margins: Margins,
                layer shellLayer: ShellLayer = .overlay, acceptsInput: Bool = false, namespace: LayerNamespace) {
        let layer: UInt32 = switch shellLayer {
        case .background: ZWLR_LAYER_SHELL_V1_LAYER_BACKGROUND.rawValue
        case .bottom: ZWLR_LAYER_SHELL_V1_LAYER_BOTTOM.rawValue
        case .top: ZWLR_LAYER_SHELL_V1_LAYER_TOP.rawValue
        case .overlay: ZWLR_LAYER_SHELL_V1_LAYER_OVERLAY.rawValue
        }
        self.connection = connection
        requestedOutput = output
        surface = wl_compositor_create_surface(connection.compositor)
        layerSurface = zwlr_layer_shell_v1_get_layer_surface(
            connection.layerShell, surface, output?.proxy, layer, namespace.rawValue)
        let opaque = Unmanaged.passUnretained(self).toOpaque()
        wl_surface_add_listener(surface, stageSurfaceListener, opaque)
        zwlr_layer_surface_v1_add_listener(layerSurface, layerSurfaceListener, opaque)

        let left = ZWLR_LAYER_SURFACE_V1_ANCHOR_LEFT.rawValue
        let right = ZWLR_LAYER_SURFACE_V1_ANCHOR_RIGHT.rawValue
        var edges = ZWLR_LAYER_SURFACE_V1_ANCHOR_TOP.rawValue | ZWLR_LAYER_SURFACE_V1_ANCHOR_BOTTOM.rawValue
        var width = 0
        switch placement {
        case .column(let anchor, let columnWidth):
            width = columnWidth
            switch anchor {
            case .topLeft, .bottomLeft: edges |= left
            case .topRight, .bottomRight: edges |= right
            case .topCenter, .bottomCenter: break
            }
        case .fullOutput:
            edges |= left | right
        }
        zwlr_layer_surface_v1_set_anchor(layerSurface, edges)
        // A 0 dimension: as large as the anchors allow (the compositor says
        // how large in its configure).
        zwlr_layer_surface_v1_set_size(layerSurface, UInt32(width), 0)
        zwlr_layer_surface_v1_set_margin(layerSurface, Int32(margins.top), Int32(margins.right),
                                         Int32(margins.bottom), Int32(margins.left))
        // 0: keep out of panels' exclusive zones, like any notifier.
        zwlr_layer_surface_v1_set_exclusive_zone(layerSurface, 0)
        zwlr_layer_surface_v1_set_keyboard_interactivity(
            layerSurface, ZWLR_LAYER_SURFACE_V1_KEYBOARD_INTERACTIVITY_NONE.rawValue)

        if !acceptsInput {
            let region = wl_compositor_create_region(connection.compositor)
            wl_surface_set_input_region(surface, region)
            wl_region_destroy(region)
        }
        if let viewporter = connection.viewporter {
            viewport = wp_viewporter_get_viewport(viewporter, surface)
            if let manager = connection.fractionalScaleManager {
                fractionalScale = wp_fractional_scale_manager_v1_get_fractional_scale(manager, surface)
                wp_fractional_scale_v1_add_listener(fractionalScale, fractionalScaleListener, opaque)
            }
        }
        updateScale()
        // The first commit carries no buffer; the compositor answers with a
        // configure, and only then may a buffer be attached.
        wl_surface_commit(surface)
    }

    deinit {
        if let frameCallback { wl_callback_destroy(frameCallback) }
        if let fractionalScale { wp_fractional_scale_v1_destroy(fractionalScale) }
        if let viewport { wp_viewport_destroy(viewport) }
        zwlr_layer_surface_v1_destroy(layerSurface)
        wl_surface_destroy(surface)
    }

    public var isConfigured: Bool { size != nil }

    /// How keyboard events name this surface.
    public var handle: SurfaceHandle { SurfaceHandle(surface) }

    private var keyboardInteractivity = ZWLR_LAYER_SURFACE_V1_KEYBOARD_INTERACTIVITY_NONE.rawValue

    /// Whether the compositor gives this stage the keyboard on a click
    /// (layer-shell v4's on_demand); without it, the only way is to take
    /// it exclusively (`takeKeyboard`).
    public var focusesOnDemand: Bool { connection.layerShellVersion >= 4 }

    /// Lets a click or tap on a toast give the stage keyboard focus
    /// (on_demand, layer-shell v4), so Escape, Return and Tab work on it.
    /// Applied with the next commit.
    public func allowKeyboardFocus() {
        guard connection.layerShellVersion >= 4 else { return }
        setKeyboardInteractivity(ZWLR_LAYER_SURFACE_V1_KEYBOARD_INTERACTIVITY_ON_DEMAND.rawValue)
    }

    /// Takes the keyboard now (exclusive) — with layer-shell v3 only, while
    /// the pointer rests on a toast with buttons; `releaseKeyboardFocus`
    /// gives it back.
    public func takeKeyboard() {
        setKeyboardInteractivity(ZWLR_LAYER_SURFACE_V1_KEYBOARD_INTERACTIVITY_EXCLUSIVE.rawValue)
    }

    /// Hands keyboard focus back (the toast that had it is gone).
    public func releaseKeyboardFocus() {
        setKeyboardInteractivity(ZWLR_LAYER_SURFACE_V1_KEYBOARD_INTERACTIVITY_NONE.rawValue)
    }

    private func setKeyboardInteractivity(_ value: UInt32) {
        guard value != keyboardInteractivity else { return }
        keyboardInteractivity = value
        zwlr_layer_surface_v1_set_keyboard_interactivity(layerSurface, value)
    }

    /// Takes input everywhere on the surface except in `box` (surface
    /// pixels), from the next commit: the center's catcher of clicks
    /// outside its panel, which lies over that box. A no-op before the
    /// first configure.
    public func setInputRegion(excluding box: FieldBox) {
        guard let size else { return }
        let region = wl_compositor_create_region(connection.compositor)
        wl_region_add(region, 0, 0, Int32(size.width), Int32(size.height))
        wl_region_subtract(region, Int32(box.x), Int32(box.y), Int32(box.width), Int32(box.height))
        wl_surface_set_input_region(surface, region)
        wl_region_destroy(region)
    }

    /// Asks for a frame callback with the next commit (once; repeated calls
    /// before the callback fires add nothing).
    public func requestFrame() {
        guard frameCallback == nil else { return }
        frameCallback = wl_surface_frame(surface)
        wl_callback_add_listener(frameCallback, frameListener, Unmanaged.passUnretained(self).toOpaque())
    }

    public var isWaitingForFrame: Bool { frameCallback != nil }

    /// Applies everything pending: subsurface positions, content, frame request.
    public func commit() {
        wl_surface_commit(surface)
    }

    // MARK: Events

    fileprivate func configure(serial: UInt32, width: UInt32, height: UInt32) {
        zwlr_layer_surface_v1_ack_configure(layerSurface, serial)
        let newSize = (width: Int(width), height: Int(height))
        guard newSize.width > 0, newSize.height > 0 else { return }
        if size.map({ $0 != newSize }) ?? true {
            size = newSize
            attachTransparentContent(width: newSize.width, height: newSize.height)
        }
        onConfigure?()
    }

    /// A mapped layer surface needs a buffer. With wp_viewporter a single
    /// transparent pixel is stretched to the whole stage; without it, a
    /// full-size transparent buffer is used.
    private func attachTransparentContent(width: Int, height: Int) {
        do {
            if let viewport {
                if content == nil { content = try ShmBuffer(shm: connection.shm!, width: 1, height: 1) }
                wp_viewport_set_destination(viewport, Int32(width), Int32(height))
            } else {
                content = try ShmBuffer(shm: connection.shm!, width: width, height: height)
            }
        } catch {
            // Without content the stage stays unmapped; report and keep going.
            Log.error("stage buffer: \(error)")
            return
        }
        guard let content else { return }
        // memfd memory starts zeroed: transparent black.
        wl_surface_attach(surface, content.proxy, 0, 0)
        wl_surface_damage_buffer(surface, 0, 0, Int32(content.width), Int32(content.height))
    }

    fileprivate func closed() {
        onClosed?()
    }

    fileprivate func frameDone(_ time: UInt32) {
        if let frameCallback { wl_callback_destroy(frameCallback) }
        frameCallback = nil
        onFrame?(time)
    }

    fileprivate func entered(_ proxy: OpaquePointer?, _ entering: Bool) {
        guard let output = Output.from(proxy: proxy) else { return }
        if entering {
            enteredOutputs[ObjectIdentifier(output)] = output
            hasEntered = true
        } else {
            enteredOutputs.removeValue(forKey: ObjectIdentifier(output))
        }
        updateScale()
    }

    /// Whether the stage's output went: the output it was made for, or
    /// every output it was shown on (made for the compositor's choice).
    /// The compositor may never close such a stage, and it gets no more
    /// frames: it has to be made again elsewhere.
    public var isStranded: Bool {
        if let requestedOutput { return requestedOutput.isRemoved }
        return hasEntered && enteredOutputs.values.allSatisfy(\.isRemoved)
    }

    /// Lets go of outputs the compositor withdrew without a `leave`.
    public func forgetRemovedOutputs() {
        let before = enteredOutputs.count
        enteredOutputs = enteredOutputs.filter { !$0.value.isRemoved }
        if enteredOutputs.count != before { updateScale() }
    }

    fileprivate func preferred(_ numerator: UInt32) {
        preferredScale = Int(clamping: numerator)
        updateScale()
    }

    /// Recomputes the scale from the compositor's preference or the outputs
    /// the stage is on, e.g. after an output changed its scale at run time.
    public func updateScale() {
        let newScale: SurfaceScale
        if fractionalScale != nil, let preferredScale {
            newScale = SurfaceScale(preferred: preferredScale)
        } else if !enteredOutputs.isEmpty {
            let integer = SurfaceScale(integer: Int(enteredOutputs.values.map(\.scale).max() ?? 1))
            newScale = fractionalScale == nil ? integer : SurfaceScale(preferred: integer.numerator)
        } else {
            newScale = guessedScale
        }
        if newScale != scale {
            scale = newScale
            onScaleChanged?()
        }
    }

    /// The scale of the output the stage is for, or of all outputs when they
    /// agree; 1 otherwise.
    private var guessedScale: SurfaceScale {
        let candidates = requestedOutput.map { [$0] } ?? Array(connection.outputs.values)
        let scales = Set(candidates.map { fractionalScale == nil ? SurfaceScale(integer: Int($0.scale)) : $0.realScale })
        let only = scales.count == 1 ? scales.first! : .one
        return fractionalScale == nil || only.isFractional ? only : SurfaceScale(preferred: only.numerator)
    }

    /// When the stage was made, to tell a compositor that closes it at once.
    public let createdAt = MonotonicClock.now()
}

private func stage(_ data: UnsafeMutableRawPointer?) -> StageSurface? {
    data.map { Unmanaged<StageSurface>.fromOpaque($0).takeUnretainedValue() }
}

nonisolated(unsafe) private let layerSurfaceListener: UnsafeMutablePointer<zwlr_layer_surface_v1_listener> = {
    let listener = UnsafeMutablePointer<zwlr_layer_surface_v1_listener>.allocate(capacity: 1)
    listener.initialize(to: zwlr_layer_surface_v1_listener(
        configure: { data, _, serial, width, height in
            stage(data)?.configure(serial: serial, width: width, height: height)
        },
        closed: { data, _ in stage(data)?.closed() }))
    return listener
}()

// Set member by member, not by the memberwise initialiser, whose
// parameters are the header's members: libwayland 1.22 (Debian 13) added
// preferred_buffer_scale and _transform (wl_surface version 6, never sent
// to a surface of wl_compositor version 4), which 1.21 (Debian 12) lacks.
nonisolated(unsafe) private let stageSurfaceListener: UnsafeMutablePointer<wl_surface_listener> = {
    let listener = UnsafeMutablePointer<wl_surface_listener>.allocate(capacity: 1)
    listener.initialize(to: wl_surface_listener())
    listener.pointee.enter = { data, _, output in stage(data)?.entered(output, true) }
    listener.pointee.leave = { data, _, output in stage(data)?.entered(output, false) }
    return listener
}()

nonisolated(unsafe) private let fractionalScaleListener: UnsafeMutablePointer<wp_fractional_scale_v1_listener> = {
    let listener = UnsafeMutablePointer<wp_fractional_scale_v1_listener>.allocate(capacity: 1)
    listener.initialize(to: wp_fractional_scale_v1_listener(
        preferred_scale: { data, _, scale in stage(data)?.preferred(scale) }))
    return listener
}()

nonisolated(unsafe) private let frameListener: UnsafeMutablePointer<wl_callback_listener> = {
    let listener = UnsafeMutablePointer<wl_callback_listener>.allocate(capacity: 1)
    listener.initialize(to: wl_callback_listener(done: { data, _, time in stage(data)?.frameDone(time) }))
    return listener
}()
