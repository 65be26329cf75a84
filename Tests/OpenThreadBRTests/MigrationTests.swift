import MeshCoP
import OpenThreadBR
import TBRFoundation
import TBRTestKit
import Testing

/// `AttachAllNodesTo` on the built otbr-sim, driven with dbus-send and busctl as the real agent was when
/// `../otbr/README.md` recorded it ("Observed on a real otbr-agent").
@Suite struct MigrationTests {
    /// The pending dataset as the leader holds it, read while the agent's real 300 s run (so a loaded
    /// machine cannot outrun it); the control interface then ends the delay, as the agent's timer would.
    @Test func theLeaderTakesADatasetWithItsOwnActiveTimestampAndIsLeaderOfItWhenTheDelayEnds() async throws {
        let b = otherDataset(activeTimestampSeconds: 1)  // channel 20, PAN ID 0x4321, another key
        try await withSimulatorBinary(["--dataset", hex(sampleDataset)]) { sim throws in
            let active = try #require(try await sim.bytes("ActiveDatasetTlvs"))
            #expect(try OperationalDataset(bytes: active).activeTimestamp == Timestamp(seconds: 1))
            let datasets = try await sim.client.activeDatasetChanges()
            let before = UInt64(SystemClock().wallTime())
            let reply = try await sim.call("AttachAllNodesTo", bytes: b)
            let after = UInt64(SystemClock().wallTime())
            #expect(reply.status == 0 && reply.stdout.contains("int64 300000"), "\(reply.stderr)")
            // The pending dataset: B with the same Active Timestamp, stamped now, the delay counting down.
            let pending = try OperationalDataset(bytes: try #require(try await sim.bytes("PendingDatasetTlvs")))
            #expect(pending.activeTimestamp == Timestamp(seconds: 1))
            #expect(pending.channel == Channel(20) && pending.panID == PANID(0x4321))
            let stamp = try #require(pending.pendingTimestamp)
            #expect(stamp.seconds >= before && stamp.seconds <= after)
            let left = try #require(pending.delayTimer?.milliseconds)
            #expect(left > 0 && left <= 300_000)
            // The node stays on the old channel while the delay runs.
            #expect(try await sim.get("Channel").stdout == "q 15\n")
            // The delay ends: the node is leader of B, and the pending dataset is gone.
            let applied = try await sim.dbusSend.call(
                "ApplyPendingDataset", [], interface: "io.tbrd.Simulator1", path: "/io/tbrd/Simulator/wpan0")
            #expect(applied.status == 0, "\(applied.stderr)")
            #expect(await collect(datasets, count: 2).last == .some(b))
            #expect(try await sim.get("DeviceRole").stdout == "s \"leader\"\n")
            #expect(try await sim.get("Channel").stdout == "q 20\n")
            #expect(try await sim.get("PanId").stdout == "q 17185\n")
            #expect(try await sim.dbusSend.get("PendingDatasetTlvs").errorName == "io.openthread.Error.NotFound")
        }
    }

    /// With no control call the delay ends by itself (`--pending-delay` makes the agent's 300 s 1.5 s):
    /// only the end is asserted, which no amount of load can outrun.
    @Test func thePendingDatasetTakesEffectByItselfWhenItsDelayEnds() async throws {
        let b = otherDataset(activeTimestampSeconds: 1)
        try await withSimulatorBinary(["--dataset", hex(sampleDataset), "--pending-delay", "1500"]) { sim throws in
            let datasets = try await sim.client.activeDatasetChanges()
            let reply = try await sim.call("AttachAllNodesTo", bytes: b)
            #expect(reply.status == 0, "\(reply.stderr)")
            #expect(await collect(datasets, count: 2).last == .some(b))
            #expect(try await sim.get("DeviceRole").stdout == "s \"leader\"\n")
            #expect(try await sim.get("Channel").stdout == "q 20\n")
            #expect(try await sim.dbusSend.get("PendingDatasetTlvs").errorName == "io.openthread.Error.NotFound")
        }
    }

    @Test func theDelayTimerCountsDownFromThreeHundredSeconds() async throws {
        // The default --pending-delay is the agent's real 300 s: the Delay Timer reads the time left.
        try await withSimulatorBinary(["--dataset", hex(sampleDataset)]) { sim throws in
            let reply = try await sim.call("AttachAllNodesTo", bytes: otherDataset(activeTimestampSeconds: 1))
            #expect(reply.stdout.contains("int64 300000"))
            let bytes = try #require(try await sim.bytes("PendingDatasetTlvs"))
            let first = try #require(try OperationalDataset(bytes: bytes).delayTimer)
            #expect(first.milliseconds <= 300_000 && first.milliseconds > 290_000)
            try await eventually("the Delay Timer went down") {
                let now = try OperationalDataset(bytes: try #require(try await sim.bytes("PendingDatasetTlvs")))
                return try #require(now.delayTimer) < first
            }
        }
    }
}
