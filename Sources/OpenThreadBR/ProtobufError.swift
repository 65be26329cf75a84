/// Why bytes are not a valid protocol buffer message, and where.
public struct ProtobufError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Byte offset where the problem starts (of the field's tag when a whole field is at fault).
    public var offset: Int
    /// The field number concerned, when known.
    public var fieldNumber: UInt32?
    /// What is wrong.
    public var reason: Reason

    /// What is wrong.
    public enum Reason: Hashable, Sendable, CustomStringConvertible {
        /// The data ends inside a field.
        case truncated
        /// A varint runs past 10 bytes or overflows 64 bits.
        case malformedVarint
        /// Field number 0, or one above 2^29 − 1.
        case invalidFieldNumber
        /// Wire type 3 or 4 (groups, unsupported here) or 6/7 (undefined).
        case unsupportedWireType(UInt8)
        /// A known field has another wire type than its declaration.
        case wrongWireType(expected: UInt8, found: UInt8)

        public var description: String {
            switch self {
            case .truncated: "the data ends inside a field"
            case .malformedVarint: "a varint is longer than 10 bytes or overflows 64 bits"
            case .invalidFieldNumber: "the field number is 0 or above 536870911"
            case .unsupportedWireType(let t): "wire type \(t) is not supported"
            case .wrongWireType(let e, let f): "wire type \(f) where the message declares wire type \(e)"
            }
        }
    }

    /// An error at `offset`.
    public init(offset: Int, fieldNumber: UInt32? = nil, reason: Reason) {
        self.offset = offset
        self.fieldNumber = fieldNumber
        self.reason = reason
    }

    /// "field 8 at offset 12: the data ends inside a field".
    public var description: String {
        if let fieldNumber { return "field \(fieldNumber) at offset \(offset): \(reason)" }
        return "offset \(offset): \(reason)"
    }
}
