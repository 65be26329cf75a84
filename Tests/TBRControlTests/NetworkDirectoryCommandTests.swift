import DBus
import Foundation
import MeshCoP
import OpenThreadBR
import TBRTestKit
import Testing

/// `tbrctl network list|preferred|add|forget|export` and `network fetch --structure`: each structure's
/// network directory through the built tbrd, with what it learns from its routers, fetches and additions.
@Suite struct NetworkDirectoryCommandTests {
    static func entries(_ rig: Rig, _ structure: String = "Home") async throws -> [[String: Any]] {
        let (result, rows) = try await rig.jsonArray(["--json", "network", "list", "--structure", structure])
        #expect(result.status == 0, "\(result.stderr)")
        return rows
    }

    @Test func theDirectoryKnowsTheRoutersNetworksAndWhatWasAddedOrFetched() async throws {
        try await withRig(["wpan0", "wpan1"], simulatorArguments: FetchCommandTests.fastEpskc, withTbrd: true) { rig throws in
            #expect(try await rig.run(["structure", "create", "Home"]).status == 0)
            #expect(try await rig.run(["structure", "add", "Home", "wpan0"]).status == 0)

            // From the structure's router: credentials held, the router named, not yet preferred.
            var rows = try await Self.entries(rig)
            #expect(rows.count == 1)
            #expect(rows.first?["extPanId"] as? String == "1111111122222222" && rows.first?["networkName"] as? String == "OpenThreadDemo")
            #expect(rows.first?["source"] as? String == "router" && rows.first?["routers"] as? [String] == ["wpan0"])
            #expect(rows.first?["credentials"] as? Bool == true && rows.first?["preferred"] as? Bool == false)
            #expect(rows.first?["stale"] as? Bool == false && rows.first?["channel"] as? Int == 15)
            #expect(Set(rows.first?.keys.map { $0 } ?? []) == [
                "structure", "extPanId", "networkName", "channel", "activeTimestamp", "source", "sourceDetail", "lastSeen", "routers",
                "credentials", "preferred", "stale",
            ])

            // Preferred: the structure's default network, the same setting.
            let chosen = try await rig.run(["network", "preferred", "Home", "1111111122222222"])
            #expect(chosen.status == 0, "\(chosen.stderr)")
            let (_, shown) = try await rig.json(["--json", "structure", "show", "Home"])
            #expect((shown["settings"] as? [String: Any])?["defaultThreadNetworkId"] as? String == "1111111122222222")
            let unknown = try await rig.run(["network", "preferred", "Home", "00000000000000ff"])
            #expect(unknown.status == 1 && unknown.stderr.contains("knows no network"), "\(unknown.stderr)")
            let malformed = try await rig.run(["network", "preferred", "Home", "xyz"])
            #expect(malformed.status == 65, "\(malformed.stderr)")

            // Added from a dataset; exported again as hex that 'dataset validate' accepts.
            let made = try await rig.run(["dataset", "new", "--name", "Cabin", "--extpanid", "cabcabcabcabcab1"])
            let hexB = made.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            let added = try await rig.run(["network", "add", "Home", "--dataset", hexB])
            #expect(added.status == 0, "\(added.stderr)")
            let partial = try await rig.run(["network", "add", "Home", "--dataset", "0e080000000000010000"])
            #expect(partial.status == 65 && partial.stderr.contains("nothing was stored"), "\(partial.stderr)")
            rows = try await Self.entries(rig)
            #expect(rows.map { $0["extPanId"] as? String } == ["1111111122222222", "cabcabcabcabcab1"])
            #expect(rows.last?["source"] as? String == "added" && rows.last?["routers"] as? [String] == [])
            #expect(rows.first?["preferred"] as? Bool == true)
            let exported = try await rig.run(["network", "export", "Home", "cabcabcabcabcab1"])
            #expect(exported.status == 0 && exported.stdout == hexB + "\n", "\(exported.stderr)")
            #expect(try await rig.run(["dataset", "validate", hexB]).status == 0)
            let preferredExport = try await rig.run(["network", "export", "Home"])
            #expect(preferredExport.stdout.contains(Vectors.networkKeyA), "without XPANID: the preferred network")
            // Listing never shows a secret.
            let listed = try await rig.run(["network", "list"])
            #expect(listed.status == 0 && !listed.stdout.contains(Vectors.networkKeyA), "\(listed.stderr)")
            #expect(listed.stdout.contains("Cabin") && listed.stdout.contains("OpenThreadDemo"))

            // Forget: refused while a router of the structure is on it; the credentials go with the entry.
            let refused = try await rig.run(["network", "forget", "Home", "1111111122222222"])
            #expect(refused.status == 1 && refused.stderr.contains("wpan0"), "\(refused.stderr)")
            #expect(try await rig.run(["network", "forget", "Home", "cabcabcabcabcab1"]).status == 0)
            let gone = try await rig.run(["network", "export", "Home", "cabcabcabcabcab1"])
            #expect(gone.status == 1, "\(gone.stderr)")
            #expect(try await rig.run(["network", "forget", "Home", "--stale"]).stdout == "\"Home\" has no stale networks\n")

            // Fetched with the ePSKc of a router that is not in the structure, on another network.
            let c = try await rig.run(["dataset", "new", "--name", "Garage", "--extpanid", "9a9a9a9a9a9a9a9a"])
            let hexC = c.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            let moved = try await rig.run(["network", "join", "-d", "wpan1", "--dataset", hexC, "--this-router-only"])
            #expect(moved.status == 0, "\(moved.stderr)")
            let agent = BorderRouterAgent(connection: rig.connection, interfaceName: "wpan1")
            // DeviceRole and ActiveDatasetTlvs (which carries the name) are signalled.
            try await eventually("wpan1 leads Garage", timeout: .seconds(10), wakingOn: agent.remote.wakeups) {
                let role = try await agent.deviceRole()
                let name = try await agent.read(.networkName)
                return role == .leader && name == "Garage"
            }
            let (key, port) = try await FetchCommandTests.activate(rig, "wpan1")
            let fetched = try await rig.run(
                ["network", "fetch", "--key", key, "--from", "127.0.0.1:\(port)", "--structure", "Home", "--reveal-secrets"])
            #expect(fetched.status == 0, "\(fetched.stderr)")
            #expect(!fetched.stdout.contains(hexC.suffix(40)) && fetched.stdout.contains("network directory"), "no secret printed")
            rows = try await Self.entries(rig)
            let garage = try #require(rows.first { $0["extPanId"] as? String == "9a9a9a9a9a9a9a9a" })
            #expect(garage["source"] as? String == "fetched" && garage["credentials"] as? Bool == true)
            #expect((garage["sourceDetail"] as? String)?.contains("127.0.0.1:\(port)") == true)
            #expect(try await rig.run(["network", "export", "Home", "9a9a9a9a9a9a9a9a"]).stdout == hexC + "\n")

            // An unknown structure: nothing fetched, the key not spent.
            let (key2, port2) = try await FetchCommandTests.activate(rig, "wpan0")
            let nowhere = try await rig.run(["network", "fetch", "--key", key2, "--from", "127.0.0.1:\(port2)", "--structure", "Nowhere"])
            #expect(nowhere.status == 1, "\(nowhere.stderr)")
            #expect(try await FetchCommandTests.keyState(rig, "wpan0").state == "started")
        }
    }
}
