/// One attribute of a trait: whether the device supports it, its value now, and its changes.
///
/// ```swift
/// if caps.epskcSupported.isSupported {
///     let supported = try await caps.epskcSupported.read()
///     for await value in caps.epskcSupported.stream() { … }   // current value first
/// }
/// ```
public struct Attribute<Value: Sendable>: Sendable {
    private let supported: @Sendable () -> Bool
    private let reader: @Sendable () async throws(HomeError) -> Value
    private let streamer: @Sendable () -> AttributeStream<Value>
    /// The attribute's name as the trait spells it, e.g. `epskcSupported`.
    public let name: String

    /// An attribute backed by the given closures (backends and trait types build these).
    /// - Parameters:
    ///   - name: the attribute's name.
    ///   - isSupported: answers from what the device last said, without I/O.
    ///   - read: reads the current value from the device.
    ///   - stream: follows the value (see ``AttributeStream``).
    public init(
        name: String, isSupported: @escaping @Sendable () -> Bool,
        read: @escaping @Sendable () async throws(HomeError) -> Value,
        stream: @escaping @Sendable () -> AttributeStream<Value>
    ) {
        self.name = name
        self.supported = isSupported
        self.reader = read
        self.streamer = stream
    }

    /// Whether the device has this attribute, as it last said (no I/O).
    public var isSupported: Bool { supported() }

    /// Reads the value from the device.
    /// - Throws: ``HomeError``: `notSupported` when the device lacks the attribute, `unavailable` when it
    ///   cannot be reached.
    public func read() async throws(HomeError) -> Value {
        guard isSupported else { throw HomeError(.notSupported, "this device does not support the attribute \(name)") }
        return try await reader()
    }

    /// The value now, then each change (see ``AttributeStream`` for the buffering).
    public func stream() -> AttributeStream<Value> { streamer() }
}
