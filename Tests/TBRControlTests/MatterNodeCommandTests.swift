import DBus
import Foundation
import MatterOnboarding
import Synchronization
import TBRFoundation
import TBRDBusAPI
import TBRTestKit
import Testing

/// Rooms, names and the life of a node after commissioning, and Ctrl-C, as a person and a script use
/// them: `tbrctl structure room …`, `matter commission --name --room`, `matter nodes`, `rename`, `move`,
/// `remove`, each with its exit status.
@Suite(.serialized) struct MatterNodeCommandTests {
    typealias C = CommissionCommandTests

    /// `CommissioningProgress` signals of structure "Home", followed from now on.
    static func progress(_ rig: Rig) async throws -> (Locked<[CommissioningProgressSignal]>, Task<Void, Never>) {
        let reply = try await RemoteObject(
            connection: rig.connection, destination: "io.tbrd", path: "/io/tbrd", interface: "io.tbrd.Manager1"
        ).call("FindStructure", [.string("Home")])
        guard case .objectPath(let path)? = reply.first else { throw TestKitError("no structure Home") }
        let signals = try await RemoteObject(connection: rig.connection, destination: "io.tbrd", path: path, interface: "io.tbrd.Structure1")
            .signals("CommissioningProgress")
        let seen = Locked<[CommissioningProgressSignal]>([])
        let task = Task {
            do {
                for try await signal in signals {
                    if let s = try? CommissioningProgressSignal(arguments: signal.arguments) { seen.withLock { $0.append(s) } }
                }
            } catch {}
        }
        return (seen, task)
    }

    @Test func roomsNamesMovesAndRemovalWithTheirExitStatuses() async throws {
        try await withMatterRig(C.simulated) { rig, _ throws in
            try await C.home(rig)
            // Rooms.
            #expect(try await rig.run(["structure", "room", "add", "Home", "Kitchen"]).status == 0)
            let duplicate = try await rig.run(["structure", "room", "add", "Home", "Kitchen"])
            #expect(duplicate.status == 65 && duplicate.stderr.contains("already has a room \"Kitchen\""), "\(duplicate.stderr)")
            #expect(try await rig.run(["structure", "room", "add", "Home", " Hall"]).status == 65)
            let (added, rooms) = try await rig.run(["--json", "structure", "room", "add", "Home", "Cafe\u{301}"]).jsonStrings()
            #expect(added.status == 0 && rooms == ["Café", "Kitchen"])
            let listed = try await rig.run(["--json", "structure", "room", "list", "Home"])
            #expect(try listed.jsonStrings().1 == ["Café", "Kitchen"])
            #expect(try await rig.run(["structure", "room", "list", "Nowhere"]).status == 1)

            // Name and room at commissioning: checked before anything is queued.
            let code = try C.code(discriminator: 100)
            let two = try await rig.run(["matter", "commission", "--structure", "Home", "--name", "Lamp", code, try C.code(discriminator: 200)])
            #expect(two.status == 64, "\(two.stderr)")
            let long = try await rig.run(["matter", "commission", "--structure", "Home", "--name", String(repeating: "x", count: 33), code])
            #expect(long.status == 65 && long.stderr.contains("longer than 32 bytes"), "\(long.stderr)")
            let attic = try await rig.run(["matter", "commission", "--structure", "Home", "--room", "Attic", code])
            #expect(attic.status == 65 && attic.stderr.contains("has no room \"Attic\"") && attic.stderr.contains("nothing was queued"), "\(attic.stderr)")
            #expect(try await rig.jsonArray(["--json", "matter", "nodes"]).1.isEmpty, "nothing was commissioned")

            let batch = try await rig.run(["--json", "matter", "commission", "--structure", "Home", "--name", "Desk lamp", "--room", "Kitchen", code])
            #expect(batch.status == 0, "\(batch.stderr)")
            let complete = try #require(batch.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
                .first { $0["stage"] as? String == "complete" })
            #expect(complete["name"] as? String == "Desk lamp" && complete["room"] as? String == "Kitchen", "\(complete)")
            #expect(complete.keys.contains("warning") && complete["warning"] is NSNull)
            let node = try #require((complete["nodeId"] as? NSNumber)?.uint64Value)

            let (_, nodes) = try await rig.jsonArray(["--json", "matter", "nodes"])
            #expect(nodes.count == 1 && nodes[0]["name"] as? String == "Desk lamp" && nodes[0]["room"] as? String == "Kitchen")
            let table = try await rig.run(["matter", "nodes"])
            #expect(table.stdout.contains("NAME") && table.stdout.contains("Desk lamp") && table.stdout.contains("Kitchen"), "\(table.stdout)")

            // A room that holds a node stays, naming it.
            let held = try await rig.run(["structure", "room", "remove", "Home", "Kitchen"])
            #expect(held.status == 1 && held.stderr.contains("holds Matter node \(node)"), "\(held.stderr)")
            // Rename, move, and the room can go.
            let (renamed, renamedView) = try await rig.json(["--json", "matter", "rename", String(node), "Reading lamp"])
            #expect(renamed.status == 0 && renamedView["name"] as? String == "Reading lamp" && renamedView["nodeLabel"] as? String == "written")
            #expect(try await rig.run(["matter", "rename", String(node), String(repeating: "é", count: 17)]).status == 65)
            #expect(try await rig.run(["matter", "move", String(node), "--room", "Attic"]).status == 65)
            #expect(try await rig.run(["matter", "move", String(node)]).status == 64, "--room or --no-room")
            #expect(try await rig.run(["matter", "move", String(node), "--room", "Café"]).status == 0)
            #expect(try await rig.run(["structure", "room", "remove", "Home", "Kitchen"]).status == 0)
            let (_, moved) = try await rig.jsonArray(["--json", "matter", "nodes", "--structure", "Home"])
            #expect(moved.first?["name"] as? String == "Reading lamp" && moved.first?["room"] as? String == "Café")

            // Remove: only a node a structure holds.
            let unknown = try await rig.run(["matter", "remove", "999"])
            #expect(unknown.status == 1 && unknown.stderr.contains("not recorded in any structure"), "\(unknown.stderr)")
            let (removed, view) = try await rig.json(["--json", "matter", "remove", String(node)])
            #expect(removed.status == 0 && view["forced"] as? Bool == false, "\(removed.stderr)")
            #expect(try await rig.jsonArray(["--json", "matter", "nodes"]).1.isEmpty)
            #expect(try await rig.run(["--json", "structure", "room", "remove", "Home", "Café"]).jsonStrings().1.isEmpty)
        }
    }

    @Test func ctrlCCancelsTheSessionAndExits130AndAKilledTbrctlsSessionIsCancelledByTbrd() async throws {
        try await withMatterRig(C.simulated) { rig, _ throws in
            try await C.home(rig)
            let (seen, follower) = try await Self.progress(rig)
            defer { follower.cancel() }
            // The slow device first, so the others are still queued when the signal comes.
            let codes = [try C.code(discriminator: 300), try C.code(discriminator: 100), try C.code(discriminator: 200)]
            let batch = try rig.spawn(["--json", "matter", "commission", "--structure", "Home"] + codes)
            try await eventually("code 1 is being commissioned", timeout: .seconds(20), wakingOn: batch.wakeups) {
                jsonLines(batch).contains { $0["payload"] as? Int == 1 && $0["stage"] as? String == "commissioning" }
            }
            kill(batch.pid, SIGINT)
            #expect(try await batch.waitForExit(timeout: .seconds(20)) == 130)
            #expect(batch.stderr.contains("interrupted (SIGINT): the session was cancelled"), "\(batch.stderr)")
            // tbrd dropped the two queued codes; the one in flight finishes and is recorded.
            try await eventually("the queued codes fail at queued", timeout: .seconds(20)) {
                seen.withLock { $0.filter { $0.stage == "failed" && $0.payloadId != "1" }.count } == 2
            }
            try await eventually("the code in flight completes", timeout: .seconds(20)) {
                seen.withLock { $0.contains { $0.payloadId == "1" && $0.stage == "complete" } }
            }

            // A tbrctl that dies without a word: tbrd sees it leave the bus and cancels its session.
            seen.withLock { $0.removeAll() }
            let second = try rig.spawn(["--json", "matter", "commission", "--structure", "Home", try C.code(discriminator: 300), codes[1]])
            try await eventually("the second batch runs", timeout: .seconds(20), wakingOn: second.wakeups) {
                jsonLines(second).contains { $0["payload"] as? Int == 2 && $0["stage"] as? String == "queued" }
            }
            kill(second.pid, SIGKILL)
            try await eventually("tbrd cancels the orphaned session: its queued code fails", timeout: .seconds(20)) {
                seen.withLock { $0.contains { $0.payloadId == "2" && $0.stage == "failed" } }
            }
            let failed = try #require(seen.withLock { $0.first { $0.payloadId == "2" && $0.stage == "failed" } })
            #expect((try? failed.detail["failedStage"]?.decode(as: String.self)) == "queued")
            #expect(rig.tbrd?.log.contains("commissioning session cancelled: its owner left the bus") == true)
        }
    }

    /// The NodeLabel of `node` as the server reads it back.
    static func label(_ controller: MatterController, _ node: UInt64) async throws -> String? {
        let text = try await controller.command("read_attribute", #"{"node_id": \#(node), "attribute_path": "0/40/5"}"#)
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        return object?["0/40/5"] as? String
    }

    @Test func theNameReachesTheDeviceARefusingOneKeepsItsNameSharingAndAnUnreachableOneGoesOnlyWithForce() async throws {
        let devices = [
            "--bluetooth", "--step-ms", "20",
            "--device", "discriminator=100 passcode=20202021 vendor-id=0xFFF1 product-id=0x8001",
            "--device", "discriminator=500 passcode=20202021 label-readonly no-multi-admin",
        ]
        try await withMatterRig(devices) { rig, sim throws in
            try await C.home(rig)
            let server = try await MatterController.connect(sim.url)
            // A device that takes the name: it is its NodeLabel now.
            let lamp = try await rig.run(["--json", "matter", "commission", "--structure", "Home", "--name", "Lamp", try C.code(discriminator: 100)])
            #expect(lamp.status == 0, "\(lamp.stderr)")
            let (_, nodes) = try await rig.jsonArray(["--json", "matter", "nodes"])
            let lampNode = try #require((nodes.first?["nodeId"] as? NSNumber)?.uint64Value)
            #expect(try await Self.label(server, lampNode) == "Lamp")
            #expect(try await rig.run(["matter", "rename", String(lampNode), "Desk lamp"]).status == 0)
            #expect(try await Self.label(server, lampNode) == "Desk lamp")

            // A device whose label is read-only: the node is complete, named, and the line says so.
            let hall = try await rig.run(["--json", "matter", "commission", "--structure", "Home", "--name", "Hall", try C.code(discriminator: 500)])
            #expect(hall.status == 0, "\(hall.stderr)")
            let complete = try #require(hall.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
                .first { $0["stage"] as? String == "complete" })
            let warning = try #require(complete["warning"] as? String)
            #expect(warning.contains("did not take it as its NodeLabel") && warning.contains("0x88"), "\(warning)")
            let hallNode = try #require((complete["nodeId"] as? NSNumber)?.uint64Value)
            #expect(try await Self.label(server, hallNode) != "Hall")
            let (_, named) = try await rig.jsonArray(["--json", "matter", "nodes"])
            #expect(named.first { ($0["nodeId"] as? NSNumber)?.uint64Value == hallNode }?["name"] as? String == "Hall")
            let renamed = try await rig.run(["matter", "rename", String(hallNode), "Hallway"])
            #expect(renamed.status == 0 && renamed.stderr.contains("warning: the name is recorded but the device did not take it"), "\(renamed.stderr)")

            // Sharing: the lamp opens a window for another controller; the hall light has no
            // administrator-commissioning cluster, so it cannot be shared (69, as the help says).
            let (shared, codes) = try await rig.json(["--json", "matter", "share", String(lampNode)])
            #expect(shared.status == 0, "\(shared.stderr)")
            #expect((codes["manualCode"] as? String)?.count == 11 && (codes["qrCode"] as? String)?.hasPrefix("MT:") == true, "\(codes)")
            let unshareable = try await rig.run(["matter", "share", String(hallNode)])
            #expect(unshareable.status == 69 && unshareable.stderr.contains("no administrator-commissioning cluster"), "\(unshareable.stderr)")

            // The lamp stops answering: removing it needs --force; until then it stays, here and on the server.
            try await server.command("sim_set_available", #"{"node_id": \#(lampNode), "available": false}"#)
            let refused = try await rig.run(["matter", "remove", String(lampNode)])
            #expect(refused.status == 1 && refused.stderr.contains("does not answer"), "\(refused.stderr)")
            #expect(try await server.nodeIDs().contains(lampNode))
            #expect(try await rig.jsonArray(["--json", "matter", "nodes"]).1.count == 2)
            let forced = try await rig.run(["matter", "remove", String(lampNode), "--force"])
            #expect(forced.status == 0, "\(forced.stderr)")
            #expect(try await server.nodeIDs() == [hallNode], "gone from the server's fabric too")
            #expect(try await rig.jsonArray(["--json", "matter", "nodes"]).1.count == 1)
            await server.close()
        }
    }
}

extension ProcessResult {
    /// Standard output as a JSON array of strings.
    func jsonStrings() throws -> (ProcessResult, [String]) {
        let object = try? JSONSerialization.jsonObject(with: Data(stdout.utf8))
        return (self, try #require(object as? [String], "no JSON array of strings: \(stdout) \(stderr)"))
    }
}
