/// `TelemetryData.BorderAgentCounters`: OpenThread's `otBorderAgentCounters`, field for field
/// (fields 1–16, all `uint32`, in the order of `otBorderAgentGetCounters`).
///
/// Which counter moves when (OpenThread `border_agent_ephemeral_key.cpp`): a started key increments
/// ``epskcActivations``; a key stopped by the agent's own stop or the feature switched off,
/// ``epskcDeactivationClears`` (as does a session timeout); the key's lifetime running out,
/// ``epskcDeactivationTimeouts``; the 10th failed DTLS attempt, ``epskcDeactivationMaxAttempts``; the
/// commissioner closing the session that used the key, ``epskcDeactivationDisconnects``.
public struct BorderAgentCounters: Hashable, Sendable {
    /// 1: ePSKc keys started.
    public var epskcActivations: UInt32 = 0
    /// 2: keys stopped by a local stop (or a session timeout).
    public var epskcDeactivationClears: UInt32 = 0
    /// 3: keys whose lifetime ran out.
    public var epskcDeactivationTimeouts: UInt32 = 0
    /// 4: keys ended by the 10th failed connection attempt.
    public var epskcDeactivationMaxAttempts: UInt32 = 0
    /// 5: keys ended because the commissioner closed its session.
    public var epskcDeactivationDisconnects: UInt32 = 0
    /// 6: starts refused because of the border agent's state.
    public var epskcInvalidBaStateErrors: UInt32 = 0
    /// 7: starts refused because of their arguments.
    public var epskcInvalidArgsErrors: UInt32 = 0
    /// 8: starts that could not open the secure transport (and sessions ended by an error).
    public var epskcStartSecureSessionErrors: UInt32 = 0
    /// 9: DTLS sessions established with the ePSKc.
    public var epskcSecureSessionSuccesses: UInt32 = 0
    /// 10: DTLS handshakes with the ePSKc that failed.
    public var epskcSecureSessionFailures: UInt32 = 0
    /// 11: commissioner petitions accepted over an ePSKc session.
    public var epskcCommissionerPetitions: UInt32 = 0
    /// 12: DTLS sessions established with the PSKc.
    public var pskcSecureSessionSuccesses: UInt32 = 0
    /// 13: DTLS handshakes with the PSKc that failed.
    public var pskcSecureSessionFailures: UInt32 = 0
    /// 14: commissioner petitions accepted over a PSKc session.
    public var pskcCommissionerPetitions: UInt32 = 0
    /// 15: MGMT_ACTIVE_GET.req received over secure sessions.
    public var mgmtActiveGets: UInt32 = 0
    /// 16: MGMT_PENDING_GET.req received over secure sessions.
    public var mgmtPendingGets: UInt32 = 0
    /// Fields of other numbers, exactly as received.
    public var unknownFields: [UInt8] = []

    /// All counters zero.
    public init() {}

    /// The counters by field number.
    static var fieldTable: [(UInt32, WritableKeyPath<BorderAgentCounters, UInt32>)] {
        [
            (1, \.epskcActivations), (2, \.epskcDeactivationClears), (3, \.epskcDeactivationTimeouts),
            (4, \.epskcDeactivationMaxAttempts), (5, \.epskcDeactivationDisconnects),
            (6, \.epskcInvalidBaStateErrors), (7, \.epskcInvalidArgsErrors), (8, \.epskcStartSecureSessionErrors),
            (9, \.epskcSecureSessionSuccesses), (10, \.epskcSecureSessionFailures),
            (11, \.epskcCommissionerPetitions), (12, \.pskcSecureSessionSuccesses), (13, \.pskcSecureSessionFailures),
            (14, \.pskcCommissionerPetitions), (15, \.mgmtActiveGets), (16, \.mgmtPendingGets),
        ]
    }

    /// Decodes a serialized `BorderAgentCounters`; absent counters are 0.
    /// - Throws: ``ProtobufError``.
    public init(serialized bytes: [UInt8]) throws(ProtobufError) {
        let table = Self.fieldTable
        for field in try ProtobufReader.fields(of: bytes) {
            guard let entry = table.first(where: { $0.0 == field.number }) else {
                unknownFields += field.raw
                continue
            }
            try field.require(.varint)
            self[keyPath: entry.1] = field.uint32
        }
    }

    /// The serialized message with every counter present (as OTBR sets them all), then unknown fields.
    public func serialized() -> [UInt8] {
        var w = ProtobufWriter()
        for (number, path) in Self.fieldTable { w.write(number, varint: UInt64(self[keyPath: path])) }
        w.writeRaw(unknownFields)
        return w.bytes
    }
}
