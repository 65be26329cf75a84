/// The border-agent part of otbr-agent's `TelemetryData` (serialized `threadnetwork.TelemetryData`,
/// ot-br-posix `src/proto/thread_telemetry.proto`): `TelemetryData.wpan_border_router` (4) →
/// `WpanBorderRouter.border_agent_info` (14) → `BorderAgentInfo { border_agent_counters = 1;
/// repeated border_agent_epskc_journey_info = 2 }`.
///
/// Reading `TelemetryData` on the agent consumes the completed journeys: each is reported once, to
/// whichever client reads first.
public struct BorderAgentTelemetry: Hashable, Sendable {
    /// The counters, nil when the agent sent no `BorderAgentInfo` or no counters in it.
    public var counters: BorderAgentCounters?
    /// The ePSKc journeys completed since the previous read, oldest first.
    public var journeys: [EpskcJourney]

    /// Telemetry with the given parts.
    public init(counters: BorderAgentCounters? = nil, journeys: [EpskcJourney] = []) {
        self.counters = counters
        self.journeys = journeys
    }

    /// Extracts the border-agent data from serialized `TelemetryData`, skipping everything else.
    /// Repeated occurrences of an embedded message merge, as protobuf decoders merge them.
    /// - Throws: ``ProtobufError`` for malformed bytes along the path.
    public init(telemetryData bytes: [UInt8]) throws(ProtobufError) {
        let wpanBorderRouter = try Self.embedded(4, in: bytes)
        let info = try Self.embedded(14, in: wpanBorderRouter ?? [])
        self.init()
        guard let info else { return }
        var countersBytes: [UInt8]?
        for field in try ProtobufReader.fields(of: info) {
            switch field.number {
            case 1:
                try field.require(.lengthDelimited)
                countersBytes = (countersBytes ?? []) + field.payload
            case 2:
                try field.require(.lengthDelimited)
                journeys.append(try EpskcJourney(serialized: field.payload))
            default:
                continue
            }
        }
        if let countersBytes { counters = try BorderAgentCounters(serialized: countersBytes) }
    }

    /// The concatenated payloads of embedded-message field `number` in `bytes`, or nil when absent.
    private static func embedded(_ number: UInt32, in bytes: [UInt8]) throws(ProtobufError) -> [UInt8]? {
        var result: [UInt8]?
        for field in try ProtobufReader.fields(of: bytes) where field.number == number {
            try field.require(.lengthDelimited)
            result = (result ?? []) + field.payload
        }
        return result
    }

    /// A serialized `TelemetryData` holding only this border-agent data (what `otbr-sim` sends).
    public func telemetryData() -> [UInt8] {
        var info = ProtobufWriter()
        if let counters { info.write(1, lengthDelimited: counters.serialized()) }
        for journey in journeys { info.write(2, lengthDelimited: journey.serialized()) }
        var wpan = ProtobufWriter()
        wpan.write(14, lengthDelimited: info.bytes)
        var top = ProtobufWriter()
        top.write(4, lengthDelimited: wpan.bytes)
        return top.bytes
    }
}
