public import TBRFoundation
public import DeviceModel

/// What a journal must keep about an open ePSKc session so that a restarted service can recover it
/// with ``BorderRouterService/restoreEpskcSession(_:)`` and still report its end. Never holds the key.
///
/// The service hands one to ``EpskcEventSink/journal(_:restoreRecord:)`` with every activation.
public struct EpskcSessionRecord: Hashable, Sendable, Codable {
    /// The router.
    public var deviceID: DeviceID
    /// The session.
    public var sessionID: EpskcSessionID
    /// When the router granted the key.
    public var activatedAt: WallTime
    /// How long the key is valid, in seconds.
    public var validDurationSeconds: Int
    /// The unique bus name of the otbr-agent instance that started the key. Another instance means the
    /// agent restarted since, which ends any key.
    public var agentInstance: String?
    /// The agent's border-agent counters just before activation (serialized `BorderAgentCounters`),
    /// against which later counters are compared to infer the reason; nil without telemetry.
    public var telemetryBaseline: [UInt8]?

    /// A record as given.
    public init(
        deviceID: DeviceID, sessionID: EpskcSessionID, activatedAt: WallTime, validDurationSeconds: Int,
        agentInstance: String? = nil, telemetryBaseline: [UInt8]? = nil
    ) {
        self.deviceID = deviceID
        self.sessionID = sessionID
        self.activatedAt = activatedAt
        self.validDurationSeconds = validDurationSeconds
        self.agentInstance = agentInstance
        self.telemetryBaseline = telemetryBaseline
    }

    /// When the key's lifetime runs out.
    public var expiresAt: WallTime { activatedAt.advanced(by: .seconds(validDurationSeconds)) }
}
