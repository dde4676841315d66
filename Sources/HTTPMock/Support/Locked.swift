import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A value guarded by a lock.
///
/// `Mutex` would do, but it needs macOS 15 / iOS 18; this box keeps older Apple systems supported. On Linux it
/// holds a plain `pthread_mutex_t`: corelibs' `NSLock` allocates three more blocks, and every request makes one
/// of these boxes. (Not `Synchronization.Mutex` on Linux either: it waits on a futex directly, which
/// ThreadSanitizer cannot see, so every access it guards would be reported as a race.)
package final class Locked<Value>: @unchecked Sendable {  // reason: every access to `value` goes through the lock
    #if canImport(Glibc) || canImport(Musl)
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    #else
    private let lock = NSLock()
    #endif
    // Unchecked exclusivity: only `withLock` touches it, under the lock; the runtime's check would repeat that.
    @exclusivity(unchecked) private var value: Value

    package init(_ value: Value) {
        self.value = value
        #if canImport(Glibc)
        // Adaptive: a thread that finds the lock taken spins briefly before it sleeps. The sections this lock guards
        // are short, and a sleep on the futex costs a waiting event loop (HTTPMockServer's) far more than the wait.
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ADAPTIVE_NP))
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
        #elseif canImport(Musl)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        #endif
    }

    #if canImport(Glibc) || canImport(Musl)
    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }
    #endif

    package func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        #if canImport(Glibc) || canImport(Musl)
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        #else
        lock.lock()
        defer { lock.unlock() }
        #endif
        return try body(&value)
    }

    package var current: Value { withLock { $0 } }
}
