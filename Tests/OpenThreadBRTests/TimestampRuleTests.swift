import DBus
import MeshCoP
import OpenThreadBR
import TBRTestKit
import Testing

/// The timestamp rules OpenThread's leader and delay timer enforce, as otbr-sim models them (read from
/// `DatasetManager::HandleSet` and `PendingDatasetManager::HandleDelayTimer`; docs/architecture.md,
/// "Moving a structure onto one network"), and the scripted radio of an energy scan.
@Suite struct TimestampRuleTests {
    /// `sampleDataset` (channel 15, Active Timestamp 1) on another channel, with the same network key.
    static func sameKey(channel: UInt16, activeTimestampSeconds: UInt64) -> [UInt8] {
        var d = try! OperationalDataset(bytes: sampleDataset)
        d.channel = Channel(channel)
        d.activeTimestamp = Timestamp(seconds: activeTimestampSeconds)
        return d.encoded()
    }

    @Test func withTheSameKeyAPendingDatasetNeedsANewerActiveTimestampAndANewerOneCancelsIt() async throws {
        try await withSimulator { env throws in
            try await env.formNetwork()
            // The same key and Active Timestamp 1 (the network's): the leader rejects the pending set.
            #expect(await otError { _ = try await env.client.attachAllNodes(to: Self.sameKey(channel: 20, activeTimestampSeconds: 1)) } == .rejected)
            #expect(try await env.client.pendingDatasetTLVs() == nil)
            // A newer Active Timestamp: taken, 300 s.
            #expect(try await env.client.attachAllNodes(to: Self.sameKey(channel: 20, activeTimestampSeconds: 2)) == .milliseconds(300_000))
            // The current network with a still newer Active Timestamp keeps connectivity: MGMT_ACTIVE_SET,
            // delay 0, taken at once; an older one is rejected.
            #expect(await otError { _ = try await env.client.attachAllNodes(to: Self.sameKey(channel: 15, activeTimestampSeconds: 0)) } == .rejected)
            #expect(try await env.client.attachAllNodes(to: Self.sameKey(channel: 15, activeTimestampSeconds: 3)) == .zero)
            // When the delay ends, the pending dataset's Active Timestamp (2) is older than the active one
            // (3) and its key the same: it is cleared without replacing anything. The channel change is off.
            #expect(try await env.control("ApplyPendingDataset") == [.bool(true)])
            #expect(try await env.client.read(.channel) == 15)
            #expect(try await env.client.pendingDatasetTLVs() == nil)
            #expect(try await env.client.activeDataset()?.activeTimestamp == Timestamp(seconds: 3))
        }
    }

    @Test func aPendingDatasetWithAnotherKeyTakesEffectWhateverTheActiveTimestamp() async throws {
        try await withSimulator { env throws in
            try await env.formNetwork()
            #expect(try await env.client.attachAllNodes(to: otherDataset(activeTimestampSeconds: 1)) == .milliseconds(300_000))
            // A newer active dataset of the current network does not stop a move to another key.
            #expect(try await env.client.attachAllNodes(to: Self.sameKey(channel: 15, activeTimestampSeconds: 9)) == .zero)
            #expect(try await env.control("ApplyPendingDataset") == [.bool(true)])
            #expect(try await env.client.read(.channel) == 20)
            #expect(try await env.client.activeDataset()?.networkKey == NetworkKey(bytes: Array(repeating: 0x42, count: 16)))
        }
    }

    @Test func partitionsWithTheSameCredentialsAgreeOnTheNewerDataset() async throws {
        try await withSimulator { env throws in
            try await env.formNetwork()
            var newer = try OperationalDataset(bytes: sampleDataset)
            newer.activeTimestamp = Timestamp(seconds: 7)
            newer.networkName = NetworkName("Merged")
            var older = newer
            older.activeTimestamp = Timestamp(seconds: 0)
            // An older partition takes ours, not the other way round; another key is not heard at all.
            #expect(try await env.control("MeetPartition", [.bytes(older.encoded())]) == [.bool(false)])
            #expect(try await env.control("MeetPartition", [.bytes(otherDataset(activeTimestampSeconds: 9))]) == [.bool(false)])
            #expect(try await env.client.read(.networkName) == "OpenThreadDemo")
            #expect(try await env.control("MeetPartition", [.bytes(newer.encoded())]) == [.bool(true)])
            #expect(try await env.client.read(.networkName) == "Merged")
        }
    }

    @Test func anEnergyScanReadsWhatTheRadioHearsOnItsSupportedChannels() async throws {
        try await withSimulator { env throws in
            try await env.control("SetChannelEnergy", [.byte(17), .int16(-45)])
            try await env.control("SetSupportedChannelMask", [.uint32(1 << 17 | 1 << 18)])
            let scan = try await env.client.energyScan(duration: .milliseconds(10))
            #expect(scan == [EnergyScanResult(channel: 17, maxRSSI: -45), EnergyScanResult(channel: 18, maxRSSI: -100)])
            #expect(try await env.client.read(.linkSupportedChannelMask) == 1 << 17 | 1 << 18)
            await #expect(throws: (any Error).self) { try await env.control("SetChannelEnergy", [.byte(27), .int16(-45)]) }
            await #expect(throws: (any Error).self) { try await env.control("SetSupportedChannelMask", [.uint32(1 << 27)]) }
        }
    }
}
