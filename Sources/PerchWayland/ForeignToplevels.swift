import CPerchSupport
import CWaylandClient
import Glibc
import PerchCore

/// The compositor's windows as `zwlr_foreign_toplevel_manager_v1` (v2+)
/// lists them, kept only for what Perch asks: is the activated (focused)
/// window fullscreen, and on which outputs; which windows there are, by
/// app id and in the order they were activated (to bring a
/// notification's sender forward, `activate`). Titles are not kept:
/// nothing asks for them, and a terminal's changes with every command.
///
/// Each handle's state, app id and outputs change atomically at its
/// `done`, as the protocol says; `onChange` and `onWindowsChanged` are
/// called after a `done` (or a `closed`) that changed their answer, never
/// for the intermediate events.
public final class ForeignToplevels {
    /// zwlr_foreign_toplevel_manager_v1 *; the connection owns and destroys it.
    private let manager: OpaquePointer
    /// Output names by registry name (the connection's outputs).
    private let outputName: (UInt32) -> String?
    /// Every window the compositor announced and has not closed
    /// (`ForeignToplevel.proxy` is what identifies one).
    private var toplevels: [ForeignToplevel] = []
    private var reported = FullscreenReport()
    private var reportedWindows: [OpenWindow] = []
    /// The key the next window announced gets (`OpenWindow.key`).
    private var nextKey: UInt32 = 1
    /// Counts activations, so that the newest has the largest number.
    private var activations: UInt64 = 0

    /// Called when `fullscreen` changes.
    public var onChange: (() -> Void)?
    /// Called when `windows` changes.
    public var onWindowsChanged: (() -> Void)?

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

    /// Every window with its app id and when it was last activated.
    public var windows: [OpenWindow] { reportedWindows }

    /// Asks the compositor to activate (focus, raise) the window `key` for
    /// `seat`: `zwlr_foreign_toplevel_handle_v1_activate`. False when the
    /// window has closed meanwhile.
    func activate(_ key: UInt32, seat: Seat) -> Bool {
        guard let toplevel = toplevels.first(where: { $0.key == key }) else { return false }
        zwlr_foreign_toplevel_handle_v1_activate(toplevel.proxy, seat.proxy)
        return true
    }

    fileprivate func announced(_ proxy: OpaquePointer) {
        // 2^32 windows before it wraps; a key still in use is skipped.
        while nextKey == 0 || toplevels.contains(where: { $0.key == nextKey }) { nextKey &+= 1 }
        toplevels.append(ForeignToplevel(proxy: proxy, key: nextKey, owner: self))
        nextKey &+= 1
    }

    /// The number of a window's activation that just happened.
    fileprivate func activated() -> UInt64 {
        activations += 1
        return activations
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
        let windows = toplevels.map { OpenWindow(key: $0.key, appID: $0.current.appID, lastActivated: $0.lastActivated) }
        if windows != reportedWindows {
            reportedWindows = windows
            onWindowsChanged?()
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
        var appID = ""
    }

    /// An app id longer than this is no app's (a desktop file name is at
    /// most 255 bytes): it is kept empty and matches nothing.
    static let longestAppID = 255

    let proxy: OpaquePointer
    /// Perch's name for it (`OpenWindow.key`).
    let key: UInt32
    private unowned let owner: ForeignToplevels
    private(set) var current = State()
    private var pending = State()
    /// When it was last activated (`ForeignToplevels.activated`); 0: not
    /// since Perch began to follow the windows.
    private(set) var lastActivated: UInt64 = 0

    init(proxy: OpaquePointer, key: UInt32, owner: ForeignToplevels) {
        self.proxy = proxy
        self.key = key
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

    fileprivate func appID(_ text: UnsafePointer<CChar>?) {
        guard let text, strnlen(text, Self.longestAppID + 1) <= Self.longestAppID else {
            pending.appID = ""
            return
        }
        pending.appID = String(cString: text)
    }

    fileprivate func outputEntered(_ output: Output?) {
        if let output { pending.outputs.insert(output.registryName) }
    }

    fileprivate func outputLeft(_ output: Output?) {
        if let output { pending.outputs.remove(output.registryName) }
    }

    fileprivate func done() {
        guard pending != current else { return }
        if pending.isActivated && !current.isActivated { lastActivated = owner.activated() }
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
        app_id: { data, _, text in owner(data)?.appID(text) },
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
