/// Why an ePSKc key ended, as a completed journey records it (`TelemetryData.EpskcDeactivatedReason`).
public enum EpskcDeactivationReason: Hashable, Sendable, CustomStringConvertible {
    /// 0 `UNKNOWN`.
    case unknown
    /// 1 `LOCAL_CLOSE`: stopped on the border router (deactivate call, feature switched off).
    case localClose
    /// 2 `REMOTE_CLOSE`: the commissioner closed the session that used the key.
    case remoteClose
    /// 3 `SESSION_ERROR`.
    case sessionError
    /// 4 `SESSION_TIMEOUT`.
    case sessionTimeout
    /// 5 `MAX_ATTEMPTS`: the 10th failed connection attempt.
    case maxAttempts
    /// 6 `EPSKC_TIMEOUT`: the key's lifetime ran out.
    case epskcTimeout
    /// A value this client does not know.
    case other(UInt32)

    /// The reason of wire value `value`.
    public init(rawValue value: UInt32) {
        switch value {
        case 0: self = .unknown
        case 1: self = .localClose
        case 2: self = .remoteClose
        case 3: self = .sessionError
        case 4: self = .sessionTimeout
        case 5: self = .maxAttempts
        case 6: self = .epskcTimeout
        default: self = .other(value)
        }
    }

    /// The wire value.
    public var rawValue: UInt32 {
        switch self {
        case .unknown: 0
        case .localClose: 1
        case .remoteClose: 2
        case .sessionError: 3
        case .sessionTimeout: 4
        case .maxAttempts: 5
        case .epskcTimeout: 6
        case .other(let v): v
        }
    }

    /// The proto enum name, e.g. `REMOTE_CLOSE`.
    public var description: String {
        switch self {
        case .unknown: "UNKNOWN"
        case .localClose: "LOCAL_CLOSE"
        case .remoteClose: "REMOTE_CLOSE"
        case .sessionError: "SESSION_ERROR"
        case .sessionTimeout: "SESSION_TIMEOUT"
        case .maxAttempts: "MAX_ATTEMPTS"
        case .epskcTimeout: "EPSKC_TIMEOUT"
        case .other(let v): "\(v)"
        }
    }
}

/// One completed ePSKc journey (`TelemetryData.BorderAgentEpskcJourneyInfo`): the milliseconds, on the
/// agent's uptime clock, at which each step happened, and why the key ended. otbr-agent reports a journey
/// once, when it has ended.
public struct EpskcJourney: Hashable, Sendable {
    /// 1: the key was started.
    public var activated: UInt32?
    /// 2: a commissioner's DTLS session was established.
    public var connected: UInt32?
    /// 3: its petition was accepted.
    public var petitioned: UInt32?
    /// 4: it read the active dataset.
    public var retrievedActiveDataset: UInt32?
    /// 5: it read the pending dataset.
    public var retrievedPendingDataset: UInt32?
    /// 6: its last keep-alive.
    public var keepAlive: UInt32?
    /// 7: the key ended.
    public var deactivated: UInt32?
    /// 8: why the key ended.
    public var deactivationReason: EpskcDeactivationReason?
    /// Fields of other numbers, exactly as received.
    public var unknownFields: [UInt8] = []

    /// An empty journey.
    public init() {}

    static var timeTable: [(UInt32, WritableKeyPath<EpskcJourney, UInt32?>)] {
        [
            (1, \.activated), (2, \.connected), (3, \.petitioned), (4, \.retrievedActiveDataset),
            (5, \.retrievedPendingDataset), (6, \.keepAlive), (7, \.deactivated),
        ]
    }

    /// Decodes a serialized journey.
    /// - Throws: ``ProtobufError``.
    public init(serialized bytes: [UInt8]) throws(ProtobufError) {
        let table = Self.timeTable
        for field in try ProtobufReader.fields(of: bytes) {
            if field.number == 8 {
                try field.require(.varint)
                deactivationReason = EpskcDeactivationReason(rawValue: field.uint32)
            } else if let entry = table.first(where: { $0.0 == field.number }) {
                try field.require(.varint)
                self[keyPath: entry.1] = field.uint32
            } else {
                unknownFields += field.raw
            }
        }
    }

    /// The serialized journey: present fields in field order, then unknown ones.
    public func serialized() -> [UInt8] {
        var w = ProtobufWriter()
        for (number, path) in Self.timeTable {
            if let v = self[keyPath: path] { w.write(number, varint: UInt64(v)) }
        }
        if let deactivationReason { w.write(8, varint: UInt64(deactivationReason.rawValue)) }
        w.writeRaw(unknownFields)
        return w.bytes
    }
}
