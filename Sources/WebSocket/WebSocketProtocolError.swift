/// The peer broke RFC 6455, or passed one of this side's ``WebSocketLimits``: what, and where in the
/// byte stream (after the handshake) the offending frame starts. The connection must be failed, closed
/// with ``closeCode``: 1002 for a protocol error, 1007 for text that is not UTF-8, 1008 for a message in
/// too many or too small fragments (a policy of this side), 1009 for a message too big.
public struct WebSocketProtocolError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The offset of the frame's first byte in the stream of frames.
    public var offset: Int
    /// What is wrong, as a sentence fragment ("a reserved bit is set").
    public var problem: String
    /// The close status to send (1002 protocol error, 1007 invalid data, 1008 policy violation, 1009 too big).
    public var closeCode: UInt16

    /// An error at `offset`.
    public init(offset: Int, _ problem: String, closeCode: UInt16 = 1002) {
        self.offset = offset
        self.problem = problem
        self.closeCode = closeCode
    }

    public var description: String { "WebSocket frame at offset \(offset): \(problem)" }
}
