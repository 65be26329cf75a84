import DBus
import Foundation
import TBRTestKit
import Testing

/// The device and structure commands through tbrd: the built tbrctl against the built tbrd and
/// otbr-sim on a private bus, in text and JSON, with their exit statuses.
@Suite struct TbrdModeTests {
    @Test func listAndInfoThroughTbrd() async throws {
        try await withRig(["wpan0", "wpan1"], withTbrd: true) { rig throws in
            let text = try await rig.run(["list"])
            #expect(text.status == 0 && text.stderr == "", "no direct-mode note: \(text.stderr)")
            #expect(text.stdout.contains("\nwpan0  dbus       wpan0    online  leader  OpenThreadDemo  1111111122222222  yes\n"))

            let (_, routers) = try await rig.jsonArray(["--json", "list"])
            #expect(routers.map { $0["id"] as? String } == ["wpan0", "wpan1"])
            #expect(
                Set(routers[1].keys)
                    == ["id", "interface", "transport", "address", "online", "role", "networkName", "extPanId", "epskcSupported"])
            #expect(routers[1]["transport"] as? String == "dbus" && routers[1]["address"] as? String == "io.openthread.BorderRouter.wpan1")
            #expect(routers[1]["online"] as? Bool == true && routers[1]["epskcSupported"] as? Bool == true)

            let (shown, info) = try await rig.json(["info", "-d", "wpan0", "--json"])
            #expect(shown.status == 0 && shown.stderr == "")
            #expect(Set(info.keys) == ["id", "transport", "address", "borderAgentId", "basicInformation", "capabilities", "network"])
            #expect((info["borderAgentId"] as? String)?.count == 32 && info["transport"] as? String == "dbus")
            let basic = try #require(info["basicInformation"] as? [String: Any])
            // Names come only from mDNS on a real agent (not browsed yet) or tbrd.conf (not set here).
            #expect(basic["vendorName"] as? String == "" && basic["productName"] as? String == "")
            #expect(basic["softwareVersion"] as? String == "0.3.0-otbr-sim" && basic["vendorId"] is NSNull)
            let network = try #require(info["network"] as? [String: Any])
            #expect(network["panId"] as? Int == 0x1234 && network["channel"] as? Int == 15 && network["role"] as? String == "leader")
            #expect((info["capabilities"] as? [String: Any])?["internetAccessOption"] as? String == "nat64Only")

            let human = try await rig.run(["info", "-d", "wpan1"])
            #expect(human.stdout.contains("Vendor            -\n"))

            let several = try await rig.run(["info"])
            #expect(several.status == 64 && several.stderr.hasPrefix("tbrctl: there are 2 border routers (wpan0, wpan1)"))
            let unknown = try await rig.run(["info", "-d", "wpan9"])
            #expect(unknown.status == 1 && unknown.stderr == "tbrctl: no border router named \"wpan9\" (known: wpan0, wpan1)\n")
            let id = try await rig.borderAgentID("wpan1")
            let (_, byID) = try await rig.json(["info", "--json", "-d", id])
            #expect(byID["id"] as? String == "wpan1")
        }
    }

    @Test func activateUseAndWatchThroughTbrd() async throws {
        try await withRig(["wpan0", "wpan1"], withTbrd: true) { rig throws in
            let watch = try rig.spawn(["epskc", "watch", "--json", "--once", "--timeout", "20"])
            try await eventually("the watcher is live", wakingOn: watch.wakeups) { watch.stderr.hasPrefix("tbrctl: watching the ePSKc events of every router through tbrd, after #") }

            let (activated, response) = try await rig.json(["epskc", "activate", "-d", "wpan0", "--duration", "30", "--json"])
            #expect(activated.status == 0 && activated.stderr == "")
            #expect(response["status"] as? String == "success" && response["validDurationSeconds"] as? Int == 30)
            let key = try #require(response["epskc"] as? String)

            let (busy, busyJSON) = try await rig.json(["epskc", "activate", "-d", "wpan0", "--json"])
            #expect(busy.status == 75 && busyJSON["status"] as? String == "busy" && busyJSON["epskc"] is NSNull)
            #expect(busy.stderr.hasPrefix("tbrctl: an ePSKc is already active on wpan0"))

            #expect(try await rig.useKey(key, on: "wpan0"))
            #expect(try await watch.waitForExit(timeout: .seconds(10)) == 0, "\(watch.stderr)")
            let events = jsonLines(watch)
            #expect(events.map { $0["event"] as? String } == ["epskcModeActivated", "epskcModeDeactivated"])
            #expect(events.allSatisfy { $0["router"] as? String == "wpan0" })
            #expect(events[1]["reason"] as? String == "keyUsed")
            let sequences = events.compactMap { $0["sequence"] as? Int }
            #expect(sequences.count == 2 && sequences[1] == sequences[0] + 1)
            #expect(isISOTime(events[0]["activatedAt"]) && isISOTime(events[1]["deactivatedAt"]))
            #expect(events[1]["activatedAt"] as? String == events[0]["activatedAt"] as? String)

            // The journal replays the same events, and --once stops at the end event.
            let replayed = try await rig.run(["epskc", "watch", "--json", "--since", "0", "--once", "--timeout", "5"])
            #expect(replayed.status == 0)
            #expect(replayed.stdout == watch.stdout)

            // An expiry and a cancel, in text.
            let (_, short) = try await rig.json(["epskc", "activate", "-d", "wpan1", "--duration", "1", "--json"])
            #expect(short["validDurationSeconds"] as? Int == 1)
            let expired = try await rig.run(["epskc", "watch", "-d", "wpan1", "--once", "--since", "\(sequences[1])", "--timeout", "10"])
            #expect(expired.status == 0)
            #expect(expired.stdout.contains("  wpan1  activated (valid 1 s)\n"))
            #expect(expired.stdout.contains("  wpan1  deactivated: expired (active "), "\(expired.stdout)")

            let text = try await rig.run(["epskc", "activate", "-d", "wpan1"])
            #expect(text.stdout.wholeMatch(of: /ePSKc \d{9} is active on wpan1 for 120 s\n/) != nil, "\(text.stdout)")
            let deactivated = try await rig.run(["epskc", "deactivate", "-d", "wpan1"])
            #expect(deactivated.status == 0 && deactivated.stdout == "ePSKc of wpan1 deactivated\n")
            let all = try await rig.run(["--json", "epskc", "watch", "--since", "0", "--timeout", "1"])
            #expect(all.status == 75, "--timeout runs out: 75")
            let reasons = all.stdout.split(separator: "\n").compactMap {
                ((try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any])?["reason"] as? String
            }
            #expect(reasons == ["keyUsed", "expired", "cancelled"])
        }
    }

    @Test func aWatcherRestartedWithSinceGetsExactlyWhatItMissed() async throws {
        try await withRig(["wpan0"], withTbrd: true) { rig throws in
            let first = try rig.spawn(["epskc", "watch", "--json"])
            try await eventually("the watcher is live", wakingOn: first.wakeups) { first.stderr.contains("through tbrd, after #0") }
            #expect(try await rig.run(["epskc", "activate"]).status == 0)
            #expect(try await rig.run(["epskc", "deactivate"]).status == 0)
            try await eventually("the first watcher printed two events", wakingOn: first.wakeups) { jsonLines(first).count == 2 }
            await first.terminate()
            let seen = jsonLines(first).compactMap { $0["sequence"] as? Int }

            for _ in 0..<2 {
                #expect(try await rig.run(["epskc", "activate"]).status == 0)
                #expect(try await rig.run(["epskc", "deactivate"]).status == 0)
            }
            let second = try rig.spawn(["epskc", "watch", "--json", "--since", "\(seen.last ?? 0)"])
            try await eventually("the second watcher caught up", wakingOn: second.wakeups) { jsonLines(second).count == 4 }
            #expect(try await rig.run(["epskc", "activate"]).status == 0)
            try await eventually("and follows live events", wakingOn: second.wakeups) { jsonLines(second).count == 5 }
            await second.terminate()
            let missed = jsonLines(second).compactMap { $0["sequence"] as? Int }
            #expect(missed == Array((seen.last! + 1)...(seen.last! + 5)), "no gap, no repeat: \(seen) then \(missed)")
        }
    }

    @Test func structuresThroughTbrd() async throws {
        try await withRig(["wpan0", "wpan1"], withTbrd: true) { rig throws in
            #expect(try await rig.run(["structure", "list"]).stdout == "no structures; create one with 'tbrctl structure create NAME'\n")
            let (_, empty) = try await rig.jsonArray(["structure", "list", "--json"])
            #expect(empty.isEmpty)

            let created = try await rig.run(["structure", "create", "Home"])
            #expect(created.status == 0 && created.stdout == "created structure Home\n")
            let duplicate = try await rig.run(["structure", "create", "Home"])
            #expect(duplicate.status == 65, "tbrd's InvalidArgument: \(duplicate.stderr)")

            let added = try await rig.run(["structure", "add", "Home", "wpan0"])
            #expect(added.status == 0 && added.stdout == "added wpan0 to structure Home\n")
            let id = try await rig.borderAgentID("wpan1")
            let (_, view) = try await rig.json(["structure", "add", "Home", id, "--json"])
            #expect(Set(view.keys) == ["name", "routers", "settings", "policy"])
            #expect(view["name"] as? String == "Home" && view["routers"] as? [String] == ["wpan0", "wpan1"])
            let settings = try #require(view["settings"] as? [String: Any])
            #expect(Set(settings.keys) == ["internetAccessOption", "defaultThreadNetworkId"])
            #expect(settings["internetAccessOption"] as? String == "unspecified" && settings["defaultThreadNetworkId"] is NSNull)

            let shown = try await rig.run(["structure", "show", "Home"])
            #expect(shown.stdout == """
                Structure        Home
                Border routers   wpan0, wpan1
                Internet access  unspecified
                Default network  -

                ROUTER  POLICY   DETAIL
                wpan0   applied  not managed
                wpan1   applied  not managed

                """)
            let listed = try await rig.run(["structure", "list"])
            #expect(listed.stdout == "NAME  BORDER ROUTERS  INTERNET ACCESS  DEFAULT NETWORK\nHome  wpan0,wpan1     unspecified      -\n")

            let removed = try await rig.run(["structure", "remove", "Home", "wpan0"])
            #expect(removed.status == 0 && removed.stdout == "removed wpan0 from structure Home\n")
            let (_, after) = try await rig.json(["--json", "structure", "show", "Home"])
            #expect(after["routers"] as? [String] == ["wpan1"])

            let noStructure = try await rig.run(["structure", "show", "Office"])
            #expect(noStructure.status == 1 && noStructure.stderr == "tbrctl: no structure named \"Office\" (known: Home)\n")
            let noRouter = try await rig.run(["structure", "add", "Home", "wpan9"])
            #expect(noRouter.status == 1 && noRouter.stderr == "tbrctl: no border router named \"wpan9\" (known: wpan0, wpan1)\n")

            let unconfirmed = try await rig.run(["structure", "delete", "Home"])
            #expect(unconfirmed.status == 64 && unconfirmed.stderr.contains("add --yes"))
            let deleted = try await rig.run(["structure", "delete", "Home", "--yes"])
            #expect(deleted.status == 0 && deleted.stdout == "deleted structure Home\n", "\(deleted.stderr)")
            #expect(try await rig.run(["structure", "show", "Home"]).status == 1)
            let (_, routers) = try await rig.jsonArray(["list", "--json"])
            #expect(routers.count == 2, "deleting a structure keeps its routers")
        }
    }

    @Test func datasetAndNetworkThroughTbrd() async throws {
        try await withRig(["wpan0"], withTbrd: true) { rig throws in
            let shown = try await rig.run(["dataset", "show"])
            #expect(shown.status == 0 && shown.stderr == "")
            #expect(shown.stdout.contains("Network Key        <redacted>\n"))
            let (_, revealed) = try await rig.json(["dataset", "show", "--json", "--reveal-secrets"])
            #expect(revealed["networkKey"] as? String == Vectors.networkKeyA)
            #expect(try await rig.run(["dataset", "show", "--pending"]).status == 1)

            let left = try await rig.run(["network", "leave", "--yes"])
            #expect(left.status == 0 && left.stdout == "wpan0 left its network\n", "\(left.stderr)")
            try await eventually("tbrd sees wpan0 without a network") {
                let (_, routers) = try await rig.jsonArray(["list", "--json"])
                return routers.first?["networkName"] is NSNull && routers.first?["online"] as? Bool == true
            }
            let (joined, json) = try await rig.json(["network", "join", "--dataset", Vectors.datasetA, "--json"])
            #expect(joined.status == 0, "\(joined.stderr)")
            #expect(json["status"] as? String == "success" && json["migrationDelaySeconds"] as? Int == 0)
        }
    }

    @Test func joiningAnotherNetworkMovesTheMeshOrOnlyThisRouter() async throws {
        try await withRig(["wpan0", "wpan1"], withTbrd: true) { rig throws in
            let other = try await rig.run(["dataset", "new", "--name", "Elsewhere", "--channel", "20"])
            let hex = other.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            // Only wpan1 moves; wpan0 stays on dataset A's network.
            let (alone, aloneJSON) = try await rig.json(["network", "join", "-d", "wpan1", "--this-router-only", "--dataset", hex, "--json"])
            #expect(alone.status == 0, "\(alone.stderr)")
            #expect(aloneJSON["status"] as? String == "success" && aloneJSON["migrationDelaySeconds"] as? Int == 0)
            try await eventually("wpan1 is on the other network") {
                let (_, info) = try await rig.json(["info", "-d", "wpan1", "--json"])
                return (info["network"] as? [String: Any])?["networkName"] as? String == "Elsewhere"
            }
            let (_, wpan0) = try await rig.json(["info", "-d", "wpan0", "--json"])
            #expect((wpan0["network"] as? [String: Any])?["networkName"] as? String == "OpenThreadDemo")
            // Without the option, wpan0's whole mesh moves after otbr-agent's delay, whatever the Active
            // Timestamp: like a real agent, the leader takes one equal to its own network's (1).
            #expect(hex.hasPrefix("0e080000000000010000"))
            let (same, sameJSON) = try await rig.json(["network", "join", "-d", "wpan0", "--dataset", hex, "--json"])
            #expect(same.status == 0, "\(same.stderr)")
            #expect(sameJSON["status"] as? String == "success" && sameJSON["migrationDelaySeconds"] as? Int == 300)
            let newer = "0e080000000000020000" + hex.dropFirst(20)
            let (mesh, meshJSON) = try await rig.json(["network", "join", "-d", "wpan0", "--dataset", newer, "--json"])
            #expect(mesh.status == 0, "\(mesh.stderr)")
            #expect(meshJSON["migrationDelaySeconds"] as? Int == 300)
        }
    }

    @Test func tbrdsPolicyRefusingACallExits77() async throws {
        let policy = PrivateBus.permissivePolicy + """
              <policy context="default">
                <deny send_destination="io.tbrd" send_interface="io.tbrd.BorderRouter1" send_member="ActivateEpskcMode"/>
              </policy>
            """
        try await withRig(["wpan0"], withTbrd: true, policy: policy) { rig throws in
            let refused = try await rig.run(["epskc", "activate"])
            #expect(refused.status == 77)
            #expect(refused.stderr.hasPrefix("tbrctl: permission denied: ActivateEpskcMode on wpan0 needs root or membership of group tbrd-admin"))
            #expect(try await rig.run(["info"]).status == 0, "reads are still allowed")
        }
    }
}

/// A watcher outlives tbrd: it waits while tbrd is away and catches up from the journal when it is back.
@Suite struct TbrdRestartTests {
    @Test func aWatcherCatchesUpWhenTbrdComesBack() async throws {
        try await withRig(["wpan0"], withTbrd: true) { rig throws in
            let tbrd = try #require(rig.tbrd)
            let watch = try rig.spawn(["epskc", "watch", "--json", "--once", "--timeout", "30"])
            try await eventually("the watcher is live", wakingOn: watch.wakeups) { watch.stderr.contains("through tbrd, after #0") }
            let (_, response) = try await rig.json(["epskc", "activate", "--duration", "60", "--json"])
            let key = try #require(response["epskc"] as? String)
            try await eventually("the watcher printed the start", wakingOn: watch.wakeups) { jsonLines(watch).count == 1 }

            // tbrd crashes while the key is active; the key is used while it is away.
            await tbrd.stop(signal: SIGKILL)
            try await eventually("the watcher noticed", wakingOn: watch.wakeups) { watch.stderr.contains("tbrd left the bus; waiting for it to come back") }
            #expect(try await rig.useKey(key, on: "wpan0"))
            try await tbrd.start(expecting: 1, connection: rig.connection)

            #expect(try await watch.waitForExit(timeout: .seconds(15)) == 0, "\(watch.stderr)\n\(tbrd.log)")
            let events = jsonLines(watch)
            #expect(events.map { $0["event"] as? String } == ["epskcModeActivated", "epskcModeDeactivated"])
            #expect(events.last?["reason"] as? String == "keyUsed")
            #expect(watch.stderr.contains("tbrd is back; catching up from its journal after #1"))
        }
    }
}

/// tbrctl's structure reads while another client creates and deletes structures.
@Suite struct TbrdConcurrentWriterTests {
    @Test func structureListAndShowNeverFailBecauseOfAnotherStructure() async throws {
        try await withRig(["wpan0"], withTbrd: true) { rig throws in
            #expect(try await rig.run(["structure", "create", "Home"]).status == 0)
            let failures = try await withStructureChurn(busAddress: rig.bus.address) { () async throws -> [String] in
                var failures: [String] = []
                for _ in 0..<25 {
                    let list = try await rig.run(["structure", "list"])
                    if list.status != 0 || !list.stdout.contains("Home") { failures.append("list: \(list.status) \(list.stderr)") }
                    let show = try await rig.run(["structure", "show", "Home"])
                    if show.status != 0 { failures.append("show: \(show.status) \(show.stderr)") }
                }
                return failures
            }
            #expect(failures.isEmpty, "\(failures.count) of 50 commands failed, first: \(failures.first ?? "")")
        }
    }
}

/// A router whose agent is off the bus, through tbrctl: info shows what is known and says offline (0);
/// operations that need the agent exit 69 with the same sentence.
@Suite struct TbrdOfflineRouterTests {
    @Test func infoWorksAndOperationsAreUnavailable() async throws {
        try await withRig(["wpan0", "wpan1"], withTbrd: true) { rig throws in
            let (_, before) = try await rig.json(["info", "-d", "wpan1", "--json"])
            #expect((before["network"] as? [String: Any])?["networkName"] as? String == "OpenThreadDemo")
            try await rig.control("wpan1", "Crash", [.uint32(600_000)])
            try await eventually("wpan1 is offline") {
                try await rig.run(["list"]).stdout.contains("wpan1  dbus       wpan1    offline")
            }
            let info = try await rig.run(["info", "-d", "wpan1"])
            #expect(info.status == 0, "\(info.stderr)")
            #expect(info.stdout.contains("offline") && info.stdout.contains("OpenThreadDemo"), "\(info.stdout)")
            for command in [["epskc", "activate", "-d", "wpan1"], ["epskc", "deactivate", "-d", "wpan1"]] {
                let r = try await rig.run(command)
                #expect(r.status == 69, "\(command): \(r.status) \(r.stderr)")
                #expect(r.stderr.contains("the otbr-agent of wpan1 is not running"), "\(command): \(r.stderr)")
            }
        }
    }
}
