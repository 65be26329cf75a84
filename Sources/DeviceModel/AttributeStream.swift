/// The values of one attribute over time, as an `AsyncSequence`.
///
/// Buffering: the current value comes first, then every change; a consumer that falls behind skips to
/// the newest value (one value is buffered, older ones are replaced). Equal consecutive values are
/// not repeated. The stream ends when its source goes away (the service stops); cancelling the
/// iterating task ends it too.
public struct AttributeStream<Value: Sendable>: AsyncSequence, Sendable {
    public typealias Element = Value
    public typealias Failure = Never

    let base: AsyncStream<Value>

    /// A stream over `base`, which must already follow the buffering described above.
    public init(_ base: AsyncStream<Value>) { self.base = base }

    /// Iterates the values.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: AsyncStream<Value>.AsyncIterator

        /// The next value, or nil when the stream has ended.
        public mutating func next() async -> Value? { await base.next() }

        /// The next value, or nil when the stream has ended.
        public mutating func next(isolation actor: isolated (any Actor)?) async -> Value? {
            await base.next(isolation: actor)
        }
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: base.makeAsyncIterator()) }
}
