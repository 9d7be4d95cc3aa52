import CPerchSupport
import CWaylandClient

/// One ext_idle_notification_v1: tells when a seat has had no input for a
/// given time (`idled`) and when input comes again (`resumed`). The
/// compositor counts from the moment it is made, so making a new one (a
/// reload with another threshold) starts over as if there had been input.
public final class IdleMonitor {
    /// ext_idle_notification_v1 *.
    private let proxy: OpaquePointer
    public let thresholdMilliseconds: UInt32
    public private(set) var isIdle = false
    /// Called with true on `idled`, false on `resumed`.
    public var onChange: ((Bool) -> Void)?

    init(notifier: OpaquePointer, seat: OpaquePointer, thresholdMilliseconds: UInt32) {
        self.thresholdMilliseconds = thresholdMilliseconds
        proxy = ext_idle_notifier_v1_get_idle_notification(notifier, thresholdMilliseconds, seat)
        ext_idle_notification_v1_add_listener(proxy, idleListener, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        ext_idle_notification_v1_destroy(proxy)
    }

    fileprivate func changed(_ idle: Bool) {
        isIdle = idle
        onChange?(idle)
    }
}

// Allocated once, never moves; `data` is the unretained IdleMonitor, which
// destroys the notification before it dies.
nonisolated(unsafe) private let idleListener: UnsafeMutablePointer<ext_idle_notification_v1_listener> = {
    func owner(_ data: UnsafeMutableRawPointer?) -> IdleMonitor? {
        data.map { Unmanaged<IdleMonitor>.fromOpaque($0).takeUnretainedValue() }
    }
    let listener = UnsafeMutablePointer<ext_idle_notification_v1_listener>.allocate(capacity: 1)
    listener.initialize(to: ext_idle_notification_v1_listener(
        idled: { data, _ in owner(data)?.changed(true) },
        resumed: { data, _ in owner(data)?.changed(false) }))
    return listener
}()
