import DBus
import Foundation
import OpenThreadBR
import TBRTestKit
import Testing

/// `tbrctl structure migrate` and `structure channel` (issue 32) through the built tbrd against otbr-sim
/// routers: a merge onto the preferred network with a router's mesh, the lock, a restart of tbrd during
/// the delay, `--auto` over scripted energy scans, a cancel, and the refusals. No test waits out a delay:
/// otbr-sim's `ApplyPendingDataset` ends it, as the agent's Delay Timer would.
@Suite struct MigrationCommandTests {
    static let xpanA = "1111111122222222"
    static let xpanC = "9a9a9a9a9a9a9a9a"

    static func migration(_ rig: Rig) async throws -> [String: Any] {
        let (_, shown) = try await rig.json(["--json", "structure", "show", "Home"])
        return shown["migration"] as? [String: Any] ?? [:]
    }

    static func step(_ row: [String: Any], _ router: String) -> [String: Any] {
        (row["steps"] as? [[String: Any]] ?? []).first { $0["router"] as? String == router } ?? [:]
    }

    static func channel(_ rig: Rig, _ name: ThreadInterfaceName) async throws -> UInt16 {
        try await BorderRouterAgent(connection: rig.connection, interfaceName: name).read(.channel)
    }

    @Test func aStructureMergesOntoItsPreferredNetworkAndChangesChannelUnderOneLock() async throws {
        try await withRig(["wpan0", "wpan1", "wpan2"], withTbrd: true) { rig throws in
            #expect(try await rig.run(["structure", "create", "Home"]).status == 0)
            for r in ["wpan0", "wpan1", "wpan2"] { #expect(try await rig.run(["structure", "add", "Home", r]).status == 0) }
            // wpan1 and wpan2 form another network, C; wpan1 has a child on its mesh.
            let c = try await rig.run(["dataset", "new", "--name", "Garage", "--extpanid", Self.xpanC, "--channel", "25"])
            let hexC = c.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            for r in ["wpan1", "wpan2"] {
                let moved = try await rig.run(["network", "join", "-d", r, "--dataset", hexC, "--this-router-only"])
                #expect(moved.status == 0, "\(moved.stderr)")
            }
            try await rig.control(
                "wpan1", "AddNode", [.string("child"), .uint64(0xC1C1_C1C1_C1C1_C1C1), .uint64(0), .byte(3), .bool(true), .bool(false), .uint32(240)])
            #expect(try await rig.run(["network", "preferred", "Home", Self.xpanA]).status == 0)

            // A target without credentials is refused, naming network fetch; nothing is locked.
            let unknown = try await rig.run(["structure", "migrate", "Home", "--to", "00000000000000ff"])
            #expect(unknown.status == 1 && unknown.stderr.contains("tbrctl network fetch"), "\(unknown.stderr)")
            #expect(try await rig.run(["structure", "migrate", "Home", "--delay", "5"]).status == 65)

            // The plan, nothing sent.
            let (dry, plan) = try await rig.json(["--json", "structure", "migrate", "Home", "--dry-run"])
            #expect(dry.status == 0, "\(dry.stderr)")
            #expect(plan["state"] as? String == "planned" && plan["targetExtPanId"] as? String == Self.xpanA && plan["targetChannel"] as? Int == 15)
            #expect(Self.step(plan, "wpan0")["action"] as? String == "stay")
            let planned = Self.step(plan, "wpan1")
            #expect(planned["action"] as? String == "move" && planned["fromExtPanId"] as? String == Self.xpanC)
            #expect(planned["activeTimestamp"] as? Int == 1 && planned["delayMs"] as? Int == 300_000 && planned["fromChannel"] as? Int == 25)
            let agent1 = BorderRouterAgent(connection: rig.connection, interfaceName: "wpan1")
            #expect(try await agent1.pendingDatasetTLVs() == nil, "a dry run sends nothing")

            // wpan2 goes offline: named in the plan, not touched.
            try await rig.control("wpan2", "Crash", [.uint32(600_000)])
            try await eventually("tbrd sees wpan2 offline", timeout: .seconds(10)) {
                let (_, rows) = try await rig.jsonArray(["--json", "list"])
                return rows.first { $0["id"] as? String == "wpan2" }?["online"] as? Bool == false
            }

            // The move, waited for in the background.
            let waiter = try rig.spawn(["--json", "structure", "migrate", "Home", "--wait"])
            try await eventually("the migration is pending", timeout: .seconds(15)) {
                try await Self.migration(rig)["state"] as? String == "pending"
            }
            let pending = try await Self.migration(rig)
            #expect(Self.step(pending, "wpan1")["outcome"] as? String == "pending")
            #expect((Self.step(pending, "wpan2")["detail"] as? String)?.contains("offline at planning time") == true)
            #expect(try await agent1.pendingDatasetTLVs() != nil)
            let shown = try await rig.run(["structure", "show", "Home"])
            #expect(shown.stdout.contains("s left") && shown.stdout.contains("Migration of \"Home\": pending"), "\(shown.stdout)")

            // One at a time: a second migration and a channel change are refused with what is pending.
            let again = try await rig.run(["structure", "migrate", "Home"])
            #expect(again.status == 75 && again.stderr.contains("pending") && again.stderr.contains("s left"), "\(again.stderr)")
            #expect(try await rig.run(["structure", "channel", "Home", "20"]).status == 75)

            // wpan1's agent restarts during the delay: it keeps its pending dataset, and tbrd keeps following.
            try await rig.control("wpan1", "Crash", [.uint32(300)])
            try await eventually("wpan1 is back with its pending dataset", timeout: .seconds(15)) {
                let (_, rows) = try await rig.jsonArray(["--json", "list"])
                guard rows.first(where: { $0["id"] as? String == "wpan1" })?["online"] as? Bool == true else { return false }
                return try await agent1.pendingDatasetTLVs() != nil
            }
            #expect(Self.step(try await Self.migration(rig), "wpan1")["outcome"] as? String == "pending")

            // The delay ends: wpan1 is on A, with its child; the waiter reports moved and exits 0.
            try await rig.control("wpan1", "ApplyPendingDataset")
            #expect(try await waiter.waitForExit(timeout: .seconds(20)) == 0, "\(waiter.stderr)")
            let done = try #require(try JSONSerialization.jsonObject(with: Data(waiter.stdout.utf8)) as? [String: Any])
            #expect(done["state"] as? String == "done" && Self.step(done, "wpan1")["outcome"] as? String == "moved", "\(done)")
            let xpan1 = try await agent1.read(.extendedPANID).description
            let channel1 = try await Self.channel(rig, "wpan1")
            #expect(xpan1 == Self.xpanA && channel1 == 15)
            // The child moved too. wpan1's agent restarted during the delay, and its mesh tables stay empty
            // until it is attached again, which on a loaded machine can come after the move.
            try await eventually("wpan1's child is in its mesh", timeout: .seconds(20)) {
                let (_, mesh) = try await rig.json(["--json", "mesh", "-d", "wpan1"])
                return (mesh["nodes"] as? [[String: Any]] ?? []).contains { $0["extAddress"] as? String == "c1c1c1c1c1c1c1c1" }
            }

            // A channel change with --auto over scripted scans: 11 and 12 are loud somewhere, 13 is the
            // quietest (ties go to the lower channel). Then tbrd restarts during the delay.
            try await rig.control("wpan0", "SetChannelEnergy", [.byte(11), .int16(-60)])
            try await rig.control("wpan1", "SetChannelEnergy", [.byte(12), .int16(-62)])
            let (auto, change) = try await rig.json(["--json", "structure", "channel", "Home", "--auto"])
            #expect(auto.status == 0, "\(auto.stderr)")
            #expect(change["kind"] as? String == "channel" && change["targetChannel"] as? Int == 13 && change["state"] as? String == "pending")
            #expect(Self.step(change, "wpan0")["activeTimestamp"] as? Int == 2, "one newer than the network's")
            let tbrd = try #require(rig.tbrd)
            await tbrd.stop()
            try await tbrd.start(expecting: 3, connection: rig.connection)
            let picked = try await Self.migration(rig)
            #expect(picked["state"] as? String == "pending", "picked up from the state database: \(picked)")
            try await rig.control("wpan0", "ApplyPendingDataset")
            try await rig.control("wpan1", "ApplyPendingDataset")
            try await eventually("the channel change is done", timeout: .seconds(15)) {
                try await Self.migration(rig)["state"] as? String == "done"
            }
            let channels = (try await Self.channel(rig, "wpan0"), try await Self.channel(rig, "wpan1"))
            #expect(channels == (13, 13))

            // A channel change cancelled before it takes effect: the network stays on 13.
            let (_, started) = try await rig.json(["--json", "structure", "channel", "Home", "14"])
            #expect(started["state"] as? String == "pending")
            let (cancel, cancelled) = try await rig.json(["--json", "structure", "migrate", "Home", "--cancel"])
            #expect(cancel.status == 0 && cancelled["state"] as? String == "cancelled", "\(cancel.stderr) \(cancelled)")
            try await rig.control("wpan0", "ApplyPendingDataset")
            #expect(try await Self.channel(rig, "wpan0") == 13)
            #expect(try await rig.run(["structure", "migrate", "Home", "--cancel"]).status == 1, "nothing to cancel")

            // Channels the network or a radio cannot use: 65.
            try await rig.control("wpan1", "SetSupportedChannelMask", [.uint32(0x03FF_F800)])
            let unsupported = try await rig.run(["structure", "channel", "Home", "26"])
            #expect(unsupported.status == 65 && unsupported.stderr.contains("wpan1"), "\(unsupported.stderr)")
            #expect(try await rig.run(["structure", "channel", "Home", "27"]).status == 65)
            #expect(try await rig.run(["structure", "channel", "Home"]).status == 64)
        }
    }
}
