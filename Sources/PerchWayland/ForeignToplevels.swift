import CPerchSupport
import CWaylandClient
import PerchCore

/// The compositor's windows as `zwlr_foreign_toplevel_manager_v1` (v2+)
/// lists them, kept only for what Perch asks: is the activated (focused)
/// window fullscreen, and on which outputs. Titles and app ids are not
/// kept.
///
/// Each handle's state and outputs change atomically at its `done`, as the
/// protocol says; `onChange` is called after a `done` (or a `closed`) that
/// changed the answer, never for the intermediate events.
public final class ForeignToplevels {
    /// zwlr_foreign_toplevel_manager_v1 *; the connection owns and destroys it.
    private let manager: OpaquePointer
    /// Output names by registry name (the connection's outputs).
    private let outputName: (UInt32) -> String?
    /// Every window the compositor announced and has not closed
    /// (`ForeignToplevel.proxy` is what identifies one).
    private var toplevels: [ForeignToplevel] = []
    private var reported = FullscreenReport()

    /// Called when `fullscreen` changes.
    public var onChange: (() -> Void)?

    init(manager: OpaquePointer, outputName: @escaping (UInt32) -> String?) {
        self.manager = manager
        self.outputName = outputName
        zwlr_foreign_toplevel_manager_v1_add_listener(manager, managerListener, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        toplevels.removeAll()
    }

    /// Where the activated window is fullscreen now.
    public var fullscreen: FullscreenReport { reported }

    fileprivate func announced(_ proxy: OpaquePointer) {
        toplevels.append(ForeignToplevel(proxy: proxy, owner: self))
    }

    /// The compositor will send nothing more (it stops or reloads): no
    /// window is known to be fullscreen any more.
    fileprivate func finished() {
        toplevels.removeAll()
        update()
    }

    fileprivate func closed(_ toplevel: ForeignToplevel) {
        toplevels.removeAll { $0 === toplevel }
        update()
    }

    /// Works the answer out again from every window's last `done`.
    fileprivate func update() {
        var report = FullscreenReport()
        for toplevel in toplevels where toplevel.current.isActivated && toplevel.current.isFullscreen {
            report.isActivatedFullscreen = true
            report.outputs.formUnion(toplevel.current.outputs.compactMap(outputName))
        }
        guard report != reported else { return }
        reported = report
        onChange?()
    }
}

/// One zwlr_foreign_toplevel_handle_v1: the state last made current by
/// `done`, and the state still being sent.
final class ForeignToplevel {
    struct State: Equatable {
        var isActivated = false
        var isFullscreen = false
        /// Registry names of the outputs the window is on.
        var outputs: Set<UInt32> = []
    }

    let proxy: OpaquePointer
    private unowned let owner: ForeignToplevels
    private(set) var current = State()
    private var pending = State()

    init(proxy: OpaquePointer, owner: ForeignToplevels) {
        self.proxy = proxy
        self.owner = owner
        zwlr_foreign_toplevel_handle_v1_add_listener(proxy, handleListener, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        zwlr_foreign_toplevel_handle_v1_destroy(proxy)
    }

    fileprivate func state(_ values: [UInt32]) {
        pending.isActivated = values.contains(ZWLR_FOREIGN_TOPLEVEL_HANDLE_V1_STATE_ACTIVATED.rawValue)
        pending.isFullscreen = values.contains(ZWLR_FOREIGN_TOPLEVEL_HANDLE_V1_STATE_FULLSCREEN.rawValue)
    }

    fileprivate func outputEntered(_ output: Output?) {
        if let output { pending.outputs.insert(output.registryName) }
    }

    fileprivate func outputLeft(_ output: Output?) {
        if let output { pending.outputs.remove(output.registryName) }
    }

    fileprivate func done() {
        guard pending != current else { return }
        current = pending
        owner.update()
    }

    fileprivate func closed() {
        owner.closed(self)
    }
}

// Listeners: allocated once, never move; `data` is the unretained owner,
// which destroys its proxy before it dies (the handles) or is kept by the
// connection while the manager lives.
nonisolated(unsafe) private let managerListener: UnsafeMutablePointer<zwlr_foreign_toplevel_manager_v1_listener> = {
    func owner(_ data: UnsafeMutableRawPointer?) -> ForeignToplevels? {
        data.map { Unmanaged<ForeignToplevels>.fromOpaque($0).takeUnretainedValue() }
    }
    let listener = UnsafeMutablePointer<zwlr_foreign_toplevel_manager_v1_listener>.allocate(capacity: 1)
    listener.initialize(to: zwlr_foreign_toplevel_manager_v1_listener(
        toplevel: { data, _, handle in if let handle { owner(data)?.announced(handle) } },
        finished: { data, _ in owner(data)?.finished() }))
    return listener
}()

nonisolated(unsafe) private let handleListener: UnsafeMutablePointer<zwlr_foreign_toplevel_handle_v1_listener> = {
    func owner(_ data: UnsafeMutableRawPointer?) -> ForeignToplevel? {
        data.map { Unmanaged<ForeignToplevel>.fromOpaque($0).takeUnretainedValue() }
    }
    let listener = UnsafeMutablePointer<zwlr_foreign_toplevel_handle_v1_listener>.allocate(capacity: 1)
    listener.initialize(to: zwlr_foreign_toplevel_handle_v1_listener(
        title: { _, _, _ in },
        app_id: { _, _, _ in },
        output_enter: { data, _, output in owner(data)?.outputEntered(Output.from(proxy: output)) },
        output_leave: { data, _, output in owner(data)?.outputLeft(Output.from(proxy: output)) },
        state: { data, _, array in owner(data)?.state(stateValues(array)) },
        done: { data, _ in owner(data)?.done() },
        closed: { data, _ in owner(data)?.closed() },
        parent: { _, _, _ in }))
    return listener
}()

/// The `uint32` values of a `state` event's wl_array.
private func stateValues(_ array: UnsafeMutablePointer<wl_array>?) -> [UInt32] {
    guard let array, let data = array.pointee.data else { return [] }
    let count = array.pointee.size / MemoryLayout<UInt32>.stride
    return Array(UnsafeBufferPointer(start: data.assumingMemoryBound(to: UInt32.self), count: count))
}
