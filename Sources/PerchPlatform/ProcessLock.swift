import Glibc

/// A mutex for the few statics that threads other than the loop's may
/// reach (the unit tests run in parallel; the daemon itself is one
/// thread). The pthread mutex lives at an address of its own, allocated
/// once, since a Swift property's address is not stable.
public final class ProcessLock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    public init() {
        mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// `body`'s result, with the lock held while it runs.
    public func holding<Result>(_ body: () throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}
