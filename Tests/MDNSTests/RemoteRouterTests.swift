import Foundation
import TBRTestKit
import Testing

extension LANTests {
    /// Issue 21 end to end: tbrd in one network namespace manages an otbr-agent (otbr-sim) in another
    /// through its REST API alone: adding it (and refusing bad URLs and duplicates), listing it, its info
    /// (names from its TXT record), its dataset, every ePSKc end reason, its structure's policy
    /// (`unsupported`), leaving and joining, a restart of tbrd, and removing it.
    @Suite struct RemoteRouterTests {
        @Test func aBorderRouterOnAnotherHostIsManagedThroughItsRESTAPI() async throws {
            try await withRemoteRouterRig { rig in
                try await rig.startSimulator()
                try await rig.startDaemon()

                // Addresses tbrd cannot use: 65 before anything is sent; nothing listening: 69.
                for bad in ["ftp://192.0.2.1:8081", "http://admin@192.0.2.1:8081", "192.0.2.1:8081", "http://"] {
                    let r = try await rig.tbrctl(["router", "add", bad])
                    #expect(r.status == 65, "\(bad): \(r.status) \(r.stderr)")
                }
                #expect(try await rig.tbrctl(["router", "add", rig.restURL, "--id", "bad id"]).status == 65)
                let nobody = try await rig.tbrctl(["router", "add", "http://\(rig.agentHost.address):9"])
                #expect(nobody.status == 69 && nobody.stderr.contains("192.0.2.1:9"), "\(nobody.stderr)")
                #expect(try await rig.list().isEmpty, "nothing was added by a refused call")

                // discover finds the agent over mDNS and its REST API on port 8081, ready for router add.
                try await eventually("discover shows the agent's REST URL", timeout: .seconds(20)) {
                    let found = try await rig.tbrctl(["--json", "discover", "--timeout", "1"])
                    let rows = ((try? JSONSerialization.jsonObject(with: Data(found.stdout.utf8))) as? [[String: Any]]) ?? []
                    return rows.contains { $0["vendorName"] as? String == "GarageCo" && $0["restUrl"] as? String == rig.restURL }
                }

                // Added: its default id is ba- and the first 8 hex digits of its Border Agent ID.
                let (added, json) = try await rig.json(["router", "add", rig.restURL])
                #expect(added.status == 0, "\(added.stderr)")
                let agentID = try #require(json["borderAgentId"] as? String)
                let id = try #require(json["id"] as? String)
                #expect(agentID.count == 32 && id == "ba-" + agentID.prefix(8) && json["address"] as? String == rig.restURL)
                // The same agent again, under any id: 1, naming the router it already is.
                for again in [["router", "add", rig.restURL], ["router", "add", rig.restURL, "--id", "garage"]] {
                    let r = try await rig.tbrctl(again)
                    #expect(r.status == 1 && r.stderr.contains(id), "\(r.status) \(r.stderr)")
                }

                // Listed with its transport and address; online once a poll answered.
                try await eventually("the remote router is online and leader", timeout: .seconds(10)) {
                    let row = try await rig.row(id)
                    return row?["online"] as? Bool == true && row?["role"] as? String == "leader"
                }
                let row = try #require(try await rig.row(id))
                #expect(row["transport"] as? String == "rest" && row["address"] as? String == rig.restURL && row["interface"] as? String == "")
                #expect(row["networkName"] as? String == "OpenThreadDemo" && row["epskcSupported"] as? Bool == true)
                // Info: what REST tells, names from its TXT record over mDNS, nothing invented.
                try await eventually("the advertised names reach info", timeout: .seconds(15)) {
                    let (_, info) = try await rig.json(["info", "-d", id])
                    return (info["basicInformation"] as? [String: Any])?["vendorName"] as? String == "GarageCo"
                }
                let (_, info) = try await rig.json(["info", "-d", id])
                #expect(info["transport"] as? String == "rest" && info["borderAgentId"] as? String == agentID)
                #expect((info["basicInformation"] as? [String: Any])?["softwareVersion"] as? String == "", "REST cannot tell the version")
                #expect((info["capabilities"] as? [String: Any])?["internetAccessOption"] as? String == "unspecified")
                let text = try await rig.tbrctl(["info", "-d", id])
                #expect(text.stdout.contains(rig.restURL) && text.stdout.contains("Hub R"), "\(text.stdout)")
                // Its dataset, secrets redacted as for any router.
                let dataset = try await rig.tbrctl(["dataset", "show", "-d", id])
                #expect(dataset.status == 0 && dataset.stdout.contains("OpenThreadDemo"), "\(dataset.stderr)")
                #expect(!dataset.stdout.contains("00112233445566778899aabbccddeeff"), "the network key is redacted")

                try await epskcEndReasons(rig, id)
                try await policyIsUnsupported(rig, id)
                // No energy scan over REST: said, never a made-up reading.
                let (scan, scanned) = try await rig.json(["--json", "network", "scan", "-d", id])
                #expect(scan.status == 1 && scanned["status"] as? String == "unsupported", "\(scan.stdout) \(scan.stderr)")
                #expect((scanned["channels"] as? [Any])?.isEmpty == true && (scanned["detail"] as? String)?.contains("REST") == true)
                try await leaveAndJoin(rig, id)
                try await migrateOverREST(rig, id)

                // A restart of tbrd: the router is remembered and comes back online.
                await rig.stopDaemon()
                try await rig.startDaemon()
                try await eventually("the remote router is back online after tbrd restarted", timeout: .seconds(10)) {
                    try await rig.row(id)?["online"] as? Bool == true
                }

                // Removed: out of its structure, gone from the list; removing it again: 1.
                let removed = try await rig.tbrctl(["router", "remove", id])
                #expect(removed.status == 0, "\(removed.stderr)")
                #expect(try await rig.row(id) == nil)
                #expect(try await rig.tbrctl(["router", "remove", id]).status == 1)
                let (_, structure) = try await rig.json(["structure", "show", "Garage"])
                #expect((structure["routers"] as? [Any])?.isEmpty == true, "\(structure)")
            }
        }

        /// keyUsed, cancelled, expired, endedEarly, and a key someone else started on the agent.
        private func epskcEndReasons(_ rig: RemoteRouterRig, _ id: String) async throws {
            let watcher = try await rig.watch()
            func ends() -> [[String: Any]] { watchedEvents(watcher).filter { $0["event"] as? String == "epskcModeDeactivated" } }

            // Used: a commissioner completes the handshake and closes; the key stays connected for the guard.
            let (granted, key) = try await rig.json(["epskc", "activate", "-d", id, "--duration", "60"])
            let digits = try #require(key["epskc"] as? String, "\(granted.stdout) \(granted.stderr)")
            rig.secrets.append(digits)
            #expect(try await rig.control("ConnectCommissioner", "s", [digits]).stdout.contains("true"))
            #expect(try await rig.control("DisconnectCommissioner").stdout.contains("true"))
            try await eventually("the end is keyUsed", timeout: .seconds(10), wakingOn: watcher.wakeups) { ends().count == 1 }
            #expect(ends()[0]["reason"] as? String == "keyUsed" && ends()[0]["router"] as? String == id)

            // Cancelled: tbrd deletes it.
            #expect(try await rig.tbrctl(["epskc", "activate", "-d", id, "--duration", "60"]).status == 0)
            #expect(try await rig.tbrctl(["epskc", "deactivate", "-d", id]).status == 0)
            try await eventually("the end is cancelled", timeout: .seconds(10), wakingOn: watcher.wakeups) { ends().count == 2 }
            #expect(ends()[1]["reason"] as? String == "cancelled")

            // Expired: a 2-second key left alone.
            #expect(try await rig.tbrctl(["epskc", "activate", "-d", id, "--duration", "2"]).status == 0)
            try await eventually("the end is expired", timeout: .seconds(10), wakingOn: watcher.wakeups) { ends().count == 3 }
            #expect(ends()[2]["reason"] as? String == "expired")

            // Ended early, nothing says why.
            #expect(try await rig.tbrctl(["epskc", "activate", "-d", id, "--duration", "60"]).status == 0)
            #expect(try await rig.control("EndEphemeralKeyEarly").stdout.contains("true"))
            try await eventually("the end is unspecified", timeout: .seconds(10), wakingOn: watcher.wakeups) { ends().count == 4 }
            #expect(ends()[3]["reason"] as? String == "unspecified" && ends()[3]["detail"] as? String == "endedEarly")

            // Someone else's key, started on the agent's own D-Bus: reported, and its end too.
            #expect(try await rig.agentCall("ActivateEphemeralKeyMode", "u", ["60000"]).status == 0)
            try await eventually("someone else's key is reported", timeout: .seconds(10), wakingOn: watcher.wakeups) {
                watchedEvents(watcher).filter { $0["event"] as? String == "epskcModeActivated" }.count == 5
            }
            #expect(try await rig.agentCall("DeactivateEphemeralKeyMode", "b", ["false"]).status == 0)
            try await eventually("and its end", timeout: .seconds(10), wakingOn: watcher.wakeups) { ends().count == 5 }
        }

        /// A structure's internet-access policy cannot be enforced over REST: unsupported, with a detail.
        private func policyIsUnsupported(_ rig: RemoteRouterRig, _ id: String) async throws {
            #expect(try await rig.tbrctl(["structure", "create", "Garage"]).status == 0)
            #expect(try await rig.tbrctl(["structure", "add", "Garage", id]).status == 0)
            let (set, policy) = try await rig.json(["structure", "policy", "Garage", "--internet-access", "all"])
            #expect(set.status == 1, "an unsupported router is not success: \(set.stdout)")
            let routers = (policy["routers"] as? [[String: Any]]) ?? []
            #expect(routers.first?["state"] as? String == "unsupported", "\(policy)")
            #expect((routers.first?["detail"] as? String)?.contains("REST") == true, "\(policy)")
        }

        /// A structure migration moves a REST router through `PUT /node/dataset/pending`, with the delay asked
        /// for (D-Bus agents always take 300 s); the Delay Timer is ended by the simulator.
        private func migrateOverREST(_ rig: RemoteRouterRig, _ id: String) async throws {
            let made = try await rig.tbrctl(["dataset", "new", "--name", "Cabin", "--extpanid", "cabcabcabcabcab1", "--channel", "21"])
            let hex = made.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(try await rig.tbrctl(["network", "add", "Garage", "--dataset", hex]).status == 0)
            #expect(try await rig.tbrctl(["network", "preferred", "Garage", "cabcabcabcabcab1"]).status == 0)
            let (started, row) = try await rig.json(["--json", "structure", "migrate", "Garage", "--delay", "45"])
            #expect(started.status == 0 && row["state"] as? String == "pending", "\(started.stdout) \(started.stderr)")
            let step = (row["steps"] as? [[String: Any]])?.first
            #expect(step?["transport"] as? String == "rest" && step?["delayMs"] as? Int == 45_000 && step?["outcome"] as? String == "pending")
            let pending = try await rig.tbrctl(["--json", "dataset", "show", "-d", id, "--pending"])
            #expect(pending.status == 0 && pending.stdout.contains("Cabin") && pending.stdout.contains("\"delayTimer\""), "\(pending.stdout)")
            #expect(try await rig.control("ApplyPendingDataset").stdout.contains("true"))
            try await eventually("the REST router moved", timeout: .seconds(20)) {
                let (_, shown) = try await rig.json(["--json", "structure", "show", "Garage"])
                return (shown["migration"] as? [String: Any])?["state"] as? String == "done"
            }
            // The agent's active dataset (read through tbrd) is the target's.
            let active = try await rig.tbrctl(["--json", "dataset", "show", "-d", id])
            #expect(active.stdout.contains("\"cabcabcabcabcab1\"") && active.stdout.contains("\"Cabin\""), "\(active.stdout)")
        }

        /// Leaving erases the agent's Thread data; joining writes the dataset and enables Thread.
        private func leaveAndJoin(_ rig: RemoteRouterRig, _ id: String) async throws {
            let left = try await rig.tbrctl(["network", "leave", "-d", id, "--yes"])
            #expect(left.status == 0, "\(left.stderr)")
            try await eventually("the router has no network", timeout: .seconds(10)) {
                let row = try await rig.row(id)
                return row?["role"] as? String == "disabled" && row?["networkName"] is NSNull
            }
            let joined = try await rig.tbrctl(["network", "join", "-d", id, "--dataset", rigDataset])
            #expect(joined.status == 0, "\(joined.stdout) \(joined.stderr)")
            try await eventually("the router is leader of the network again", timeout: .seconds(15)) {
                let row = try await rig.row(id)
                return row?["role"] as? String == "leader" && row?["networkName"] as? String == "OpenThreadDemo"
            }
        }
    }
}
