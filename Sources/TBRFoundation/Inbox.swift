/// A bounded mailbox that several producers post into and one task reads, as an `AsyncStream`: the one
/// way tbrd merges event sources into one loop. At most ``capacity`` elements wait; a post that finds it
/// full ends the inbox instead of growing it or dropping silently: the reader takes what waits, then the
/// end, and ``overflowed`` tells it that it fell behind (it can catch up from a journal, or say so).
public final class Inbox<Element: Sendable>: Sendable {
    /// What the reader iterates.
    public let stream: AsyncStream<Element>
    /// The most elements that wait for the reader.
    public let capacity: Int
    private let continuation: AsyncStream<Element>.Continuation
    private let overflow = Locked(false)

    /// An empty inbox for up to `capacity` waiting elements (at least 1).
    public init(capacity: Int) {
        self.capacity = max(1, capacity)
        (stream, continuation) = AsyncStream.makeStream(of: Element.self, bufferingPolicy: .bufferingOldest(self.capacity))
    }

    /// Posts `element`.
    /// - Returns: false when the inbox is full (it ends now, ``overflowed`` is true) or ended already.
    @discardableResult
    public func post(_ element: Element) -> Bool {
        switch continuation.yield(element) {
        case .enqueued: return true
        case .dropped:
            overflow.withLock { $0 = true }
            continuation.finish()
            return false
        case .terminated: return false
        @unknown default: return false
        }
    }

    /// Ends the inbox: the reader takes what waits, then the end.
    public func finish() { continuation.finish() }

    /// Whether the inbox ended because the reader fell ``capacity`` elements behind.
    public var overflowed: Bool { overflow.withLock { $0 } }
}
