import Glibc

/// ThreadSanitizer annotations for the handoffs through continuations that the Swift runtime leaves
/// unannotated.
///
/// When a continuation is resumed before its task reaches the `await` (a reply that arrives while the
/// caller is still on its way to suspending), `swift_continuation_await` continues the task at once,
/// ordered only by an atomic load inside the uninstrumented runtime. TSan then sees no order between
/// the resuming thread's writes (the decoded reply) and the task's reads, and reports a race that is
/// not there (swiftlang/swift#57803). The resuming side calls ``release(_:)`` on an object both sides
/// know, just before resuming; the task calls ``acquire(_:)`` on it right after the `await`.
///
/// The same blind spot covers `Synchronization.Mutex` on Linux: once contended it waits on a futex,
/// which TSan does not intercept, so two critical sections of one mutex on two threads look unordered.
/// ``Locked``, the project's mutex, runs each critical section between ``acquire(_:)`` and
/// ``release(_:)`` on itself.
///
/// Outside a TSan build all of it does nothing: `__tsan_acquire` and `__tsan_release` are looked up
/// once with `dlsym` and are absent.
public enum ThreadSanitizer {
    private typealias Annotation = @convention(c) (UnsafeMutableRawPointer?) -> Void

    private static let acquireFunction: Annotation? = lookUp("__tsan_acquire")
    private static let releaseFunction: Annotation? = lookUp("__tsan_release")

    /// Everything this thread did so far happens before whatever follows ``acquire(_:)`` on `object`.
    @inline(__always)
    public static func release(_ object: AnyObject) {
        releaseFunction?(Unmanaged.passUnretained(object).toOpaque())
    }

    /// Whatever preceded ``release(_:)`` on `object` happens before what this thread does next.
    @inline(__always)
    public static func acquire(_ object: AnyObject) {
        acquireFunction?(Unmanaged.passUnretained(object).toOpaque())
    }

    private static func lookUp(_ name: String) -> Annotation? {
        // RTLD_DEFAULT: the process's global symbols, where a TSan build's runtime lives.
        guard let symbol = dlsym(nil, name) else { return nil }
        return unsafeBitCast(symbol, to: Annotation.self)
    }
}
