import CPerchSupport
import CWaylandClient
import Glibc
import PerchPlatform

/// The seat's clipboard, set without keyboard focus through the
/// compositor's data-control protocol: `ext_data_control_manager_v1`
/// where it is offered, else `zwlr_data_control_manager_v1` (the two have
/// the same requests and events; `DataControl` says which one speaks).
///
/// Nothing is made until the first copy: a data device hears of every
/// selection the desktop makes, so one kept open would wake Perch at each
/// copy anywhere. A copy makes the device for the first seat and a source
/// offering the text as UTF-8 (`text/plain;charset=utf-8`, `text/plain`,
/// `UTF8_STRING`, `TEXT`, `STRING`), and sets it as the selection. Each
/// `send` is answered by a `PipeWriter` (never blocking the loop); when
/// another program copies, the source is `cancelled` and the source and
/// the device go, with the transfers still running.
///
/// Bounds: one source at a time (a new copy replaces it), at most
/// `maximumTransfers` writes at once (the oldest is cut short for a new
/// one), the text at most a body's length (the service's).
public final class Clipboard {
    /// Writes to pasting programs at once, at most.
    static let maximumTransfers = 8
    static let mimeTypes = ["text/plain;charset=utf-8", "text/plain", "UTF8_STRING", "TEXT", "STRING"]

    private let control: DataControl
    /// The manager (ext_ or zwlr_data_control_manager_v1 *), the connection's.
    private let manager: OpaquePointer
    /// The seat whose selection is set (wl_seat *).
    private let seat: () -> OpaquePointer?
    private unowned let loop: EventLoop
    /// The data device, while a source of ours is the selection.
    private var device: OpaquePointer?
    /// Ours, while it is the selection (or about to be).
    private var source: OpaquePointer?
    private var text: [UInt8] = []
    /// Writes under way, oldest first.
    private var transfers: [PipeWriter] = []

    init(control: DataControl, manager: OpaquePointer, seat: @escaping () -> OpaquePointer?, loop: EventLoop) {
        self.control = control
        self.manager = manager
        self.seat = seat
        self.loop = loop
    }

    deinit {
        for transfer in transfers { transfer.cancel() }
        dropSource()
    }

    /// The protocol's interface name, for the log and `perch -v`.
    public var protocolName: String { control.name }

    /// Makes `text` the clipboard's content. False when there is no seat
    /// to set it on.
    @discardableResult
    public func copy(_ text: String) -> Bool {
        if device == nil {
            guard let seat = seat() else { return false }
            device = control.getDevice(manager, seat)
            guard let device else { return false }
            control.listenToDevice(device, Unmanaged.passUnretained(self).toOpaque())
        }
        // The old source is no longer wanted: a pasting program that asks
        // from now on reads the new one.
        if let source { control.destroySource(source) }
        guard let device, let made = control.createSource(manager) else { return false }
        source = made
        self.text = Array(text.utf8)
        control.listenToSource(made, Unmanaged.passUnretained(self).toOpaque())
        for type in Self.mimeTypes { control.offer(made, type) }
        control.setSelection(device, made)
        return true
    }

    // MARK: Events

    fileprivate func send(_ source: OpaquePointer?, mimeType: String, fd: Int32) {
        // Only the current source is answered; every type is the same text.
        guard source == self.source, Self.mimeTypes.contains(mimeType) else {
            close(fd)
            return
        }
        if transfers.count >= Self.maximumTransfers { transfers.removeFirst().cancel() }
        let writer = PipeWriter(adopting: fd, bytes: text, loop: loop) { [unowned self] ended in
            self.transfers.removeAll { $0 === ended }
        }
        if !writer.isDone { transfers.append(writer) }
    }

    fileprivate func cancelled(_ source: OpaquePointer?) {
        guard let source else { return }
        if source == self.source {
            dropSource()
        } else {
            control.destroySource(source)
        }
    }

    /// The device's offers are destroyed as soon as they are named: Perch
    /// never reads the selection.
    fileprivate func offered(_ offer: OpaquePointer?) {
        if let offer { control.destroyOffer(offer) }
    }

    fileprivate func finished() {
        if let device { control.destroyDevice(device) }
        device = nil
        if let source { control.destroySource(source) }
        source = nil
    }

    /// Another program's copy replaced ours: nothing is offered any more,
    /// and the device goes too, so that the desktop's copies wake nobody.
    private func dropSource() {
        if let source { control.destroySource(source) }
        source = nil
        text = []
        if let device { control.destroyDevice(device) }
        device = nil
    }

    fileprivate static func owner(_ data: UnsafeMutableRawPointer?) -> Clipboard? {
        data.map { Unmanaged<Clipboard>.fromOpaque($0).takeUnretainedValue() }
    }
}

/// The requests of one data-control protocol, ext's or wlr's: the same
/// messages under two names.
struct DataControl {
    let name: String
    let createSource: (OpaquePointer) -> OpaquePointer?
    let getDevice: (OpaquePointer, OpaquePointer) -> OpaquePointer?
    let offer: (OpaquePointer, String) -> Void
    let setSelection: (OpaquePointer, OpaquePointer) -> Void
    let destroySource: (OpaquePointer) -> Void
    let destroyDevice: (OpaquePointer) -> Void
    let destroyOffer: (OpaquePointer) -> Void
    let listenToSource: (OpaquePointer, UnsafeMutableRawPointer) -> Void
    let listenToDevice: (OpaquePointer, UnsafeMutableRawPointer) -> Void
    /// Destroys the manager (the connection's, at its end).
    let destroyManager: (OpaquePointer) -> Void

    static var ext: DataControl { DataControl(
        name: "ext_data_control_manager_v1",
        createSource: { ext_data_control_manager_v1_create_data_source($0) },
        getDevice: { ext_data_control_manager_v1_get_data_device($0, $1) },
        offer: { ext_data_control_source_v1_offer($0, $1) },
        setSelection: { ext_data_control_device_v1_set_selection($0, $1) },
        destroySource: { ext_data_control_source_v1_destroy($0) },
        destroyDevice: { ext_data_control_device_v1_destroy($0) },
        destroyOffer: { ext_data_control_offer_v1_destroy($0) },
        listenToSource: { _ = ext_data_control_source_v1_add_listener($0, extSourceListener, $1) },
        listenToDevice: { _ = ext_data_control_device_v1_add_listener($0, extDeviceListener, $1) },
        destroyManager: { ext_data_control_manager_v1_destroy($0) }) }

    static var wlr: DataControl { DataControl(
        name: "zwlr_data_control_manager_v1",
        createSource: { zwlr_data_control_manager_v1_create_data_source($0) },
        getDevice: { zwlr_data_control_manager_v1_get_data_device($0, $1) },
        offer: { zwlr_data_control_source_v1_offer($0, $1) },
        setSelection: { zwlr_data_control_device_v1_set_selection($0, $1) },
        destroySource: { zwlr_data_control_source_v1_destroy($0) },
        destroyDevice: { zwlr_data_control_device_v1_destroy($0) },
        destroyOffer: { zwlr_data_control_offer_v1_destroy($0) },
        listenToSource: { _ = zwlr_data_control_source_v1_add_listener($0, wlrSourceListener, $1) },
        listenToDevice: { _ = zwlr_data_control_device_v1_add_listener($0, wlrDeviceListener, $1) },
        destroyManager: { zwlr_data_control_manager_v1_destroy($0) }) }
}

// The listeners: allocated once, never moved; `data` is the unretained
// Clipboard, which destroys its sources and device before it dies. Every
// event of the bound version is set (wlr's device is bound at v2 or lower:
// primary_selection included).
nonisolated(unsafe) private let extSourceListener: UnsafeMutablePointer<ext_data_control_source_v1_listener> = {
    let listener = UnsafeMutablePointer<ext_data_control_source_v1_listener>.allocate(capacity: 1)
    listener.initialize(to: ext_data_control_source_v1_listener(
        send: { data, source, mime, fd in
            Clipboard.owner(data)?.send(source, mimeType: mime.map { String(cString: $0) } ?? "", fd: fd)
        },
        cancelled: { data, source in Clipboard.owner(data)?.cancelled(source) }))
    return listener
}()

nonisolated(unsafe) private let extDeviceListener: UnsafeMutablePointer<ext_data_control_device_v1_listener> = {
    let listener = UnsafeMutablePointer<ext_data_control_device_v1_listener>.allocate(capacity: 1)
    listener.initialize(to: ext_data_control_device_v1_listener(
        data_offer: { _, _, _ in },
        selection: { data, _, offer in Clipboard.owner(data)?.offered(offer) },
        finished: { data, _ in Clipboard.owner(data)?.finished() },
        primary_selection: { data, _, offer in Clipboard.owner(data)?.offered(offer) }))
    return listener
}()

nonisolated(unsafe) private let wlrSourceListener: UnsafeMutablePointer<zwlr_data_control_source_v1_listener> = {
    let listener = UnsafeMutablePointer<zwlr_data_control_source_v1_listener>.allocate(capacity: 1)
    listener.initialize(to: zwlr_data_control_source_v1_listener(
        send: { data, source, mime, fd in
            Clipboard.owner(data)?.send(source, mimeType: mime.map { String(cString: $0) } ?? "", fd: fd)
        },
        cancelled: { data, source in Clipboard.owner(data)?.cancelled(source) }))
    return listener
}()

nonisolated(unsafe) private let wlrDeviceListener: UnsafeMutablePointer<zwlr_data_control_device_v1_listener> = {
    let listener = UnsafeMutablePointer<zwlr_data_control_device_v1_listener>.allocate(capacity: 1)
    listener.initialize(to: zwlr_data_control_device_v1_listener(
        data_offer: { _, _, _ in },
        selection: { data, _, offer in Clipboard.owner(data)?.offered(offer) },
        finished: { data, _ in Clipboard.owner(data)?.finished() },
        primary_selection: { data, _, offer in Clipboard.owner(data)?.offered(offer) }))
    return listener
}()
