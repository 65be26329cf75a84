/// Values a deinit hands to a serial queue so that their last release (and the C objects they own)
/// happens there.
///
/// `@unchecked Sendable`: after the handoff only the queue touches them, once, in ``release()``.
final class QueueRelease: @unchecked Sendable {
    private var values: Any?

    init(_ values: Any) { self.values = values }

    /// Drops the values (on the queue they were handed to).
    func release() { values = nil }
}
