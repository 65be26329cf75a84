import OpenThreadBR
import TBRFoundation
import Testing

/// The protobuf reader/writer and the three messages the client reads: round trips, unknown fields kept
/// byte-exact, truncation anywhere refused without trapping.
@Suite struct ProtobufTests {
    @Test func varintsRoundTripAndOverlongOnesAreRefused() throws {
        for value: UInt64 in [0, 1, 127, 128, 300, 16_383, 16_384, UInt64(UInt32.max), .max] {
            var w = ProtobufWriter()
            w.writeVarint(value)
            var r = ProtobufReader(w.bytes)
            #expect(try r.readVarint() == value)
            #expect(r.isAtEnd)
        }
        var w = ProtobufWriter()
        w.writeVarint(300)
        #expect(w.bytes == [0xAC, 0x02])
        var overlong = ProtobufReader([UInt8](repeating: 0xFF, count: 10) + [0x01])
        #expect(throws: ProtobufError.self) { _ = try overlong.readVarint() }
        var overflow = ProtobufReader([UInt8](repeating: 0xFF, count: 9) + [0x02])
        #expect(throws: ProtobufError.self) { _ = try overflow.readVarint() }
    }

    @Test func capabilitiesAsTheAgentSendsThem() throws {
        let c = try Capabilities(serialized: [0x08, 0x01, 0x10, 0x00])
        #expect(c == Capabilities(nat64: true, dhcp6PD: false))
        #expect(c.supportsNat64 && !c.supportsDhcp6PD)
        #expect(c.serialized() == [0x08, 0x01, 0x10, 0x00])
        #expect(try Capabilities(serialized: []) == Capabilities())
        // A field of another wire type where a bool is declared is refused.
        #expect(throws: ProtobufError.self) { _ = try Capabilities(serialized: [0x0A, 0x00]) }
    }

    @Test func featureFlagReadModifyWriteKeepsUnknownFieldsByteExact() throws {
        // enable_nat64 = true, an unknown varint field 20 = 150, enable_ephemeralkey = true,
        // an unknown length-delimited field 21 = "hi", an unknown fixed32 field 22.
        let original: [UInt8] = [0x08, 0x01, 0xA0, 0x01, 0x96, 0x01, 0x40, 0x01, 0xAA, 0x01, 0x02, 0x68, 0x69, 0xB5, 0x01, 1, 2, 3, 4]
        var flags = try FeatureFlagList(serialized: original)
        #expect(flags.enableNat64 == true)
        #expect(flags.enableEphemeralKey == true)
        #expect(flags.enableDhcp6PD == nil)
        #expect(flags.unknownFields == [0xA0, 0x01, 0x96, 0x01, 0xAA, 0x01, 0x02, 0x68, 0x69, 0xB5, 0x01, 1, 2, 3, 4])
        flags.enableDhcp6PD = true
        let written = flags.serialized()
        #expect(written == [0x08, 0x01, 0x30, 0x01, 0x40, 0x01] + flags.unknownFields)
        #expect(try FeatureFlagList(serialized: written) == flags)
        // Unchanged, known fields already in order: the same bytes come back.
        let ordered: [UInt8] = [0x08, 0x00, 0x18, 0x07, 0x40, 0x01, 0xA0, 0x01, 0x05]
        #expect(try FeatureFlagList(serialized: ordered).serialized() == ordered)
    }

    @Test func featureFlagsDecodeAsTheAgentsProtobufLibraryDoes() throws {
        // A known field number with another wire type and a log level outside ProtoLogLevel are not
        // the known fields: they stay with the unknown ones, byte-exact and in order.
        let odd: [UInt8] = [0x0A, 0x02, 0x68, 0x69, 0x18, 0x09, 0x45, 1, 2, 3, 4]
        let flags = try FeatureFlagList(serialized: [0x30, 0x00] + odd + [0x30, 0x01, 0x18, 0x08])
        #expect(flags.enableNat64 == nil)
        #expect(flags.enableDhcp6PD == true)  // the last occurrence wins
        #expect(flags.detailedLoggingLevel == 8)
        #expect(flags.unknownFields == odd)
        #expect(flags.serialized() == [0x18, 0x08, 0x30, 0x01] + odd)
        // A level read as 32 bits, as protobuf reads an enum: 2^32 + 1 is 1.
        #expect(try FeatureFlagList(serialized: [0x18, 0x81, 0x80, 0x80, 0x80, 0x10]).detailedLoggingLevel == 1)
        // Bytes that are not a message are still refused.
        #expect(throws: ProtobufError.self) { try FeatureFlagList(serialized: [0x0A, 0x05, 0x68]) }
    }

    @Test func everyTruncationIsRefusedWithAnOffset() throws {
        var flags = FeatureFlagList()
        flags.enableNat64 = true
        flags.detailedLoggingLevel = 300
        flags.unknownFields = [0xAA, 0x01, 0x03, 1, 2, 3]
        let bytes = flags.serialized()
        for cut in 1..<bytes.count {
            let prefix = Array(bytes.prefix(cut))
            do {
                _ = try FeatureFlagList(serialized: prefix)
            } catch {
                #expect(error.offset <= cut)
            }
        }
    }

    @Test func telemetryCountersAndJourneysRoundTrip() throws {
        var counters = BorderAgentCounters()
        counters.epskcActivations = 3
        counters.epskcDeactivationDisconnects = 1
        counters.mgmtPendingGets = 70_000
        var journey = EpskcJourney()
        journey.activated = 10
        journey.connected = 20
        journey.deactivated = 30
        journey.deactivationReason = .remoteClose
        var other = EpskcJourney()
        other.activated = 40
        other.deactivated = 50
        other.deactivationReason = .other(9)
        let telemetry = BorderAgentTelemetry(counters: counters, journeys: [journey, other])
        let bytes = telemetry.telemetryData()
        #expect(try BorderAgentTelemetry(telemetryData: bytes) == telemetry)
        // All 16 counters are present, as OTBR sets them.
        #expect(try ProtobufReader.fields(of: counters.serialized()).map(\.number) == Array(1...16))
    }

    @Test func telemetryIsFoundAmongOtherFields() throws {
        // TelemetryData { 1: wpan_stats {…}, 4: wpan_border_router { 6: nat64_state {…}, 14: { 1: { 1: 7 } } } }
        var counters = ProtobufWriter()
        counters.write(1, varint: 7)
        var info = ProtobufWriter()
        info.write(1, lengthDelimited: counters.bytes)
        var wpan = ProtobufWriter()
        wpan.write(6, lengthDelimited: [0x08, 0x01])
        wpan.write(14, lengthDelimited: info.bytes)
        var top = ProtobufWriter()
        top.write(1, lengthDelimited: [0x10, 0x05])
        top.write(4, lengthDelimited: wpan.bytes)
        top.write(5, lengthDelimited: [])
        let t = try BorderAgentTelemetry(telemetryData: top.bytes)
        #expect(t.counters?.epskcActivations == 7)
        #expect(t.counters?.mgmtActiveGets == 0)
        #expect(t.journeys.isEmpty)
        // No border agent info at all: no counters.
        #expect(try BorderAgentTelemetry(telemetryData: [0x0A, 0x02, 0x10, 0x05]).counters == nil)
        #expect(throws: ProtobufError.self) { _ = try BorderAgentTelemetry(telemetryData: [0x22, 0x05, 0x72]) }
    }

    @Test func dripFedFieldsReadTheSameAsWhole() throws {
        let journey: [UInt8] = {
            var j = EpskcJourney()
            j.activated = 1
            j.retrievedPendingDataset = 123_456
            j.deactivationReason = .epskcTimeout
            j.unknownFields = [0x48, 0x01]
            return j.serialized()
        }()
        var reader = ProtobufReader(journey)
        var fields: [ProtobufField] = []
        while let f = try reader.next() { fields.append(f) }
        #expect(fields.flatMap(\.raw) == journey)
        #expect(try EpskcJourney(serialized: journey).serialized() == journey)
    }
}
