import DBus
import Foundation
import TBRDBusAPI
import TBRTestKit
import Testing

/// tbrd beside another controller on one real python-matter-server (Home Assistant's situation): the
/// other controller adds its own nodes (`import_test_node`, as the real server adds a node it
/// commissioned) before, while and after tbrd's commissionings time out and lose their connection. tbrd
/// never reports, records, changes or removes them; they are listed as unclaimed; one a person adopts
/// becomes tbrd's, which it then names, places in a room and removes, through the real server.
@Suite(.serialized) struct SharedMatterServerTests {
    static func rows(_ reply: [DBusValue]) throws -> [UnclaimedMatterNodeRow] { try reply[0].decode(as: [UnclaimedMatterNodeRow].self) }

    @Test func anotherControllersNodesAreLeftAloneAndOnlyAnAdoptedNodeIsChanged() async throws {
        try await withMatterServer { server in
            try await withDaemon { env throws in
                let rig = try await CommissioningRig.start(env, configuration: MatterServerDaemonTests.configuration(server, commissionTimeout: 3))
                var other = try await MatterController.connect(server.url)
                let before = try await other.importTestNode(productID: 0x9001, label: "HA lamp")
                let session = try await rig.prepare()

                // tbrd's commissioning times out (the server looks for 30 s) while the other controller adds a node.
                let timedOut = try await rig.commission(session, CommissioningRig.code(discriminator: 100), ["onNetwork": .bool(true)])
                try await eventually("tbrd hands the code over", timeout: .seconds(10)) { rig.progress.stages(session, timedOut).contains("commissioning") }
                let during = try await other.importTestNode(productID: 0x9002)
                let unknown = try await rig.waitForEnd(session, timedOut)
                #expect(unknown.map(\.stage) == ["queued", "validated", "networkSelected", "commissioning", "failed"])
                #expect(MatterServerDaemonTests.detail(unknown.last, "error")?.contains("outcome unknown: the server may still add the device") == true)

                // tbrd's connection is lost while it commissions; the other controller adds a node after.
                let lost = try await rig.commission(session, CommissioningRig.code(discriminator: 200), ["onNetwork": .bool(true)])
                try await eventually("tbrd hands the code over", timeout: .seconds(10)) { rig.progress.stages(session, lost).contains("commissioning") }
                server.dropConnections()
                let cut = try await rig.waitForEnd(session, lost)
                #expect(MatterServerDaemonTests.detail(cut.last, "error")?.contains("outcome unknown") == true, "\(cut)")
                await other.close()
                other = try await MatterController.connect(server.url)
                let after = try await other.importTestNode(productID: 0x9003)
                #expect(try await rig.complete(session).map(\.outcome) == ["failed", "failed"])

                // Nothing of the other controller's is tbrd's: none recorded, all listed as unclaimed.
                #expect(try await rig.structure.property("MatterNodes", as: [MatterNodeRow].self).isEmpty)
                let unclaimed = try Self.rows(try await env.manager.call("UnclaimedMatterNodes", timeout: .seconds(30)))
                #expect(unclaimed.map(\.nodeId) == [before, during, after])
                #expect(unclaimed.first?.label == "HA lamp" && unclaimed.first?.productId == 0x9001 && unclaimed.first?.available == true)

                // A person adopts one: it becomes tbrd's, named after its label; the others stay unclaimed.
                _ = try await rig.structure.call("AdoptMatterNode", [.uint64(before)], timeout: .seconds(30))
                let adopted = try await rig.structure.property("MatterNodes", as: [MatterNodeRow].self)
                #expect(adopted.map(\.nodeId) == [before] && adopted.first?.name == "HA lamp" && adopted.first?.room == "")
                #expect(try Self.rows(try await env.manager.call("UnclaimedMatterNodes", timeout: .seconds(30))).map(\.nodeId) == [during, after])
                let twice = await CommissioningRig.failure { _ = try await rig.structure.call("AdoptMatterNode", [.uint64(before)], timeout: .seconds(30)) }
                #expect(twice?.name == "io.tbrd.Error.Failed" && twice?.message.contains("already recorded in structure \"Home\"") == true)

                // Rooms, a name written through the real server's write_attribute, a room that holds a node.
                _ = try await rig.structure.call("AddRoom", [.string("Kitchen")])
                #expect(try await rig.structure.property("Rooms", as: [String].self) == ["Kitchen"])
                _ = try await rig.structure.call("MoveMatterNode", [.uint64(before), .string("Kitchen")])
                let renamed = try await rig.structure.call("RenameMatterNode", [.uint64(before), .string("Desk lamp")], timeout: .seconds(30))
                #expect(renamed == [.string("")], "the server took the label")
                let held = await CommissioningRig.failure { _ = try await rig.structure.call("RemoveRoom", [.string("Kitchen")]) }
                #expect(held?.name == "io.tbrd.Error.Failed" && held?.message.contains("holds Matter node \(before)") == true, "\(String(describing: held))")
                let row = try #require(try await rig.structure.property("MatterNodes", as: [MatterNodeRow].self).first)
                #expect(row.name == "Desk lamp" && row.room == "Kitchen")

                // Only a node a structure holds can be removed; the adopted one goes from the server's fabric.
                let notOurs = await CommissioningRig.failure { _ = try await rig.structure.call("RemoveMatterNode", [.uint64(during), .bool(true)]) }
                #expect(notOurs?.name == "io.tbrd.Error.NotFound", "\(String(describing: notOurs))")
                _ = try await rig.structure.call("RemoveMatterNode", [.uint64(before), .bool(false)], timeout: .seconds(30))
                #expect(try await rig.structure.property("MatterNodes", as: [MatterNodeRow].self).isEmpty)
                #expect(try await other.nodeIDs() == [during, after], "the other controller's nodes are all still there")
                _ = try await rig.structure.call("RemoveRoom", [.string("Kitchen")])
                #expect(!server.log.contains("Removing Node ID \(during)") && !server.log.contains("Removing Node ID \(after)"))
                await other.close()
            }
        }
    }
}

/// The same sharing with matter-sim, where the other controller really commissions devices of its own
/// (the real server cannot without hardware): its commissioning runs between tbrd's, its node comes
/// first, and tbrd reports and records only the node its own command's answer names.
@Suite(.serialized) struct SharedMatterSimTests {
    @Test func anotherControllersCommissioningBetweenTbrdsIsNeverTakenForTbrds() async throws {
        try await withDaemon { env throws in
            let rig = try await CommissioningRig.start(
                env,
                matterSim: [
                    "--bluetooth", "--step-ms", "50",
                    "--device", "discriminator=100 passcode=20202021 vendor-id=0xFFF1 product-id=0x8001",
                    "--device", "discriminator=900 passcode=20202021 vendor-id=0xFFF4 product-id=0x9009 delay-ms=300",
                ])
            let sim = try #require(rig.matterSim)
            let other = try await MatterController.connect(sim.url)
            // The other controller starts first (its device is slow); tbrd's command waits behind it.
            try await other.command("set_thread_dataset", #"{"dataset": "00"}"#)
            async let theirs = other.command(
                "commission_with_code", #"{"code": "\#(CommissioningRig.code(discriminator: 900, vendor: 0xFFF4, product: 0x9009))"}"#)
            let session = try await rig.prepare()
            let ours = try await rig.commission(session, CommissioningRig.code(discriminator: 100))
            let signals = try await rig.waitForEnd(session, ours)
            let theirNode = try #require(try JSONSerialization.jsonObject(with: Data(try await theirs.utf8)) as? [String: Any])["node_id"]
                as? Int
            #expect(signals.map(\.stage).suffix(3) == ["nodeAdded", "interviewed", "complete"])
            let ourNode = try #require(signals.last.flatMap { try? $0.detail["nodeId"]?.decode(as: UInt64.self) })
            #expect(ourNode != UInt64(theirNode ?? 0), "tbrd's node is the one its answer named, not the one added first")
            #expect(try await rig.structure.property("MatterNodes", as: [MatterNodeRow].self).map(\.nodeId) == [ourNode])
            #expect(try await rig.complete(session).map(\.outcome) == ["complete"])
            // Theirs is listed as unclaimed, and still on the server.
            let unclaimed = try await env.manager.call("UnclaimedMatterNodes", timeout: .seconds(30))[0].decode(as: [UnclaimedMatterNodeRow].self)
            #expect(unclaimed.map(\.nodeId) == [UInt64(theirNode ?? 0)] && unclaimed.first?.vendorId == 0xFFF4)
            #expect(try await other.nodeIDs() == [UInt64(theirNode ?? 0), ourNode].sorted())
            await other.close()
            env.secrets.append("20202021")
        }
    }

    /// A server older than the schema tbrd speaks is refused by name and version.
    @Test func aServerOlderThanSchema11IsRefusedByNameAndVersion() async throws {
        try await withDaemon { env throws in
            let rig = try await CommissioningRig.start(env, matterSim: ["--schema-version", "10"])
            let refused = await CommissioningRig.failure { _ = try await rig.prepare() }
            #expect(refused?.name == "io.tbrd.Error.Unavailable", "\(String(describing: refused))")
            #expect(refused?.message.contains("speaks schema 10") == true, "\(String(describing: refused))")
            #expect(refused?.message.contains("older than the schema 11 tbrd speaks: upgrade python-matter-server") == true)
        }
    }
}
