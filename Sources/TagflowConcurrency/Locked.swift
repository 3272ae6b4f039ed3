#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A value that many threads share, behind a lock: the one lock type of Tagflow's modules.
///
/// ```swift
/// let seen = Locked<Set<String>>([])
/// let isNew = seen.withLock { $0.insert(name).inserted }
/// ```
///
/// A `pthread_mutex_t` of the default kind, holding the value it guards, so that the value can
/// only be reached under the lock. Not `Synchronization.Mutex`: on Linux that one is a
/// priority-inheritance futex, whose kernel path and spinning showed in a build's CPU time where
/// both cores took one lock, and ThreadSanitizer does not follow it (it reported accesses under
/// it as races). Not `NSLock`, which holds no value and needs Foundation.
package final class Locked<Value>: @unchecked Sendable {
    // @unchecked: `value` is only touched inside `withLock`, under the mutex; the mutex's memory
    // is allocated once and never moves.
    private var value: Value
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    /// Creates a lock around `value`.
    package init(_ value: sending Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        precondition(pthread_mutex_init(mutex, nil) == 0, "pthread_mutex_init failed")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with the value, holding the lock; `body` must not take this lock again.
    package func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure)
        -> Result
    {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
