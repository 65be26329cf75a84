import DBus
import Foundation
import TBRTestKit
import Testing

/// The device commands without tbrd: the built tbrctl talks to the built otbr-sim directly on a private
/// bus, in text and JSON, with the exit statuses scripts depend on.
@Suite struct DirectModeTests {
    @Test func listAndInfoInTextAndJSON() async throws {
        try await withRig(["wpan0", "wpan1"]) { rig throws in
            let text = try await rig.run(["list"])
            #expect(text.status == 0)
            #expect(text.stderr == directModeNote, "the direct-mode note comes once")
            let lines = text.stdout.split(separator: "\n")
            #expect(lines.first?.hasPrefix("ID     TRANSPORT  ADDRESS  STATE   ROLE    NETWORK         EXTENDED PAN ID   EPSKC") == true)
            #expect(lines.contains("wpan1  dbus       wpan1    online  leader  OpenThreadDemo  1111111122222222  yes"))

            let (listed, routers) = try await rig.jsonArray(["list", "--json"])
            #expect(listed.status == 0)
            #expect(routers.count == 2)
            #expect(
                Set(routers[0].keys)
                    == ["id", "interface", "transport", "address", "online", "role", "networkName", "extPanId", "epskcSupported"])
            #expect(routers[0]["transport"] as? String == "dbus" && routers[0]["address"] as? String == "io.openthread.BorderRouter.wpan0")
            #expect(routers.map { $0["id"] as? String } == ["wpan0", "wpan1"])
            #expect(routers[0]["online"] as? Bool == true && routers[0]["role"] as? String == "leader")
            #expect(routers[0]["networkName"] as? String == "OpenThreadDemo")
            #expect(routers[0]["extPanId"] as? String == "1111111122222222")
            #expect(routers[0]["epskcSupported"] as? Bool == true)

            let (shown, info) = try await rig.json(["--json", "info", "-d", "wpan1"])
            #expect(shown.status == 0)
            #expect(Set(info.keys) == ["id", "transport", "address", "borderAgentId", "basicInformation", "capabilities", "network"])
            #expect(info["id"] as? String == "wpan1")
            let basic = try #require(info["basicInformation"] as? [String: Any])
            #expect(Set(basic.keys) == ["vendorName", "vendorId", "productId", "productName", "softwareVersion"])
            #expect(basic["softwareVersion"] as? String == "0.3.0-otbr-sim")
            #expect(basic["vendorId"] is NSNull && basic["productId"] is NSNull)
            let caps = try #require(info["capabilities"] as? [String: Any])
            #expect(caps["epskcSupported"] as? Bool == true && caps["internetAccessOption"] as? String == "nat64Only")
            let network = try #require(info["network"] as? [String: Any])
            #expect(network["role"] as? String == "leader" && network["networkName"] as? String == "OpenThreadDemo")
            #expect(network["panId"] as? Int == 0x1234 && network["channel"] as? Int == 15)
            #expect(network["extPanId"] as? String == "1111111122222222")

            let human = try await rig.run(["info", "-dwpan0"])
            #expect(human.status == 0)
            #expect(human.stdout.contains("Router            wpan0 (interface wpan0, online)\n"))
            #expect(human.stdout.contains("PAN ID            0x1234\n"))
            #expect(human.stdout.contains("ePSKc             supported\n"))
        }
    }

    @Test func routersAreChosenByIdInterfaceOrBorderAgentID() async throws {
        try await withRig(["wpan0", "wpan1"]) { rig throws in
            let several = try await rig.run(["info"])
            #expect(several.status == 64)
            #expect(several.stderr.contains("tbrctl: there are 2 border routers (wpan0, wpan1); choose one with -d ROUTER\n"))
            #expect(several.stderr.contains("Run 'tbrctl info --help' for usage."))

            let unknown = try await rig.run(["info", "-d", "wpan7", "--json"])
            #expect(unknown.status == 1)
            #expect(unknown.stdout == "")
            #expect(unknown.stderr.hasSuffix("tbrctl: no border router named \"wpan7\" (known: wpan0, wpan1)\n"))

            let id = try await rig.borderAgentID("wpan1")
            let (byID, info) = try await rig.json(["info", "--json", "-d", id.uppercased()])
            #expect(byID.status == 0, "\(byID.stderr)")
            #expect(info["id"] as? String == "wpan1")
        }
        try await withRig(["wpan3"]) { rig throws in
            let (only, info) = try await rig.json(["info", "--json"])
            #expect(only.status == 0, "one router: -d may be left out")
            #expect(info["id"] as? String == "wpan3")
        }
    }

    @Test func activateThenWatchSeesTheKeyUsed() async throws {
        try await withRig(["wpan0", "wpan1"]) { rig throws in
            let watch = try rig.spawn(["epskc", "watch", "--json", "--once", "--timeout", "20"])
            try await eventually("the watcher is watching", wakingOn: watch.wakeups) { watch.stderr.contains("watching wpan0, wpan1 without tbrd") }

            let (activated, response) = try await rig.json(["epskc", "activate", "-d", "wpan1", "--duration", "30", "--json"])
            #expect(activated.status == 0)
            #expect(Set(response.keys) == ["status", "epskc", "validDurationSeconds"])
            #expect(response["status"] as? String == "success" && response["validDurationSeconds"] as? Int == 30)
            let key = try #require(response["epskc"] as? String)
            #expect(key.count == 9 && key.allSatisfy(\.isNumber))

            let busy = try await rig.run(["epskc", "activate", "-d", "wpan1", "--json"])
            #expect(busy.status == 75)
            #expect(busy.stdout.contains("\"status\" : \"busy\"") && busy.stdout.contains("\"epskc\" : null"))

            try await eventually("the watcher noticed the key", wakingOn: watch.wakeups) { jsonLines(watch).count == 1 }
            #expect(try await rig.useKey(key, on: "wpan1"))
            #expect(try await watch.waitForExit(timeout: .seconds(10)) == 0)
            let events = jsonLines(watch)
            #expect(events.count == 2)
            #expect(events.map { $0["event"] as? String } == ["epskcModeActivated", "epskcModeDeactivated"])
            #expect(events.map { $0["sequence"] as? Int } == [1, 2])
            #expect(events.allSatisfy { $0["router"] as? String == "wpan1" })
            #expect(Set(events[0].keys) == ["event", "sequence", "router", "activatedAt"])
            #expect(events[1]["reason"] as? String == "keyUsed" && events[1]["detail"] == nil)
            #expect(isISOTime(events[0]["activatedAt"]) && isISOTime(events[1]["deactivatedAt"]))
            #expect(events[1]["activatedAt"] as? String == events[0]["activatedAt"] as? String)
        }
    }

    @Test func activateDeactivateInTextAndTheirStatuses() async throws {
        try await withRig(["wpan0"]) { rig throws in
            let watch = try rig.spawn(["epskc", "watch", "-d", "wpan0", "--timeout", "20", "--once"])
            try await eventually("the watcher is watching", wakingOn: watch.wakeups) { watch.stderr.contains("watching wpan0 without tbrd") }

            let activated = try await rig.run(["epskc", "activate"])
            #expect(activated.status == 0)
            #expect(activated.stdout.wholeMatch(of: /ePSKc \d{9} is active on wpan0 for 120 s\n/) != nil, "\(activated.stdout)")
            let busy = try await rig.run(["epskc", "activate", "--duration", "5"])
            #expect(busy.status == 75 && busy.stdout == "")
            #expect(busy.stderr.contains("tbrctl: ActivateEpskcMode on wpan0 failed: otbr-agent for wpan0 answered io.openthread.Error.Busy"))

            try await eventually("the watcher noticed the key", wakingOn: watch.wakeups) { watch.stdout.split(separator: "\n").count == 1 }
            let deactivated = try await rig.run(["epskc", "deactivate"])
            #expect(deactivated.status == 0 && deactivated.stdout == "ePSKc of wpan0 deactivated\n")
            #expect(try await watch.waitForExit(timeout: .seconds(10)) == 0)
            let lines = watch.stdout.split(separator: "\n").map(String.init)
            #expect(lines.count == 2)
            #expect(lines[0].wholeMatch(of: /\S+Z  #1  wpan0  activated/) != nil, "\(lines)")
            #expect(lines[1].wholeMatch(of: /\S+Z  #2  wpan0  deactivated: cancelled \(active [0-9.]+ s\)/) != nil, "\(lines)")

            let (again, json) = try await rig.json(["epskc", "deactivate", "--retain-session", "--json"])
            #expect(again.status == 0, "no key active: still a success")
            #expect(json["router"] as? String == "wpan0" && json["status"] as? String == "success")
        }
    }

    @Test func aRouterWithoutEpskcAnswersNotSupported() async throws {
        try await withRig(["wpan0"], simulatorArguments: ["--dataset", Vectors.datasetA, "--no-epskc"]) { rig throws in
            let (result, json) = try await rig.json(["epskc", "activate", "--json"])
            #expect(result.status == 1)
            #expect(json["status"] as? String == "notSupported" && json["epskc"] is NSNull)
            #expect(json["validDurationSeconds"] as? Int == 0)
            #expect(result.stderr.contains("tbrctl: ActivateEpskcMode on wpan0 failed"))
        }
    }

    @Test func watchWithoutTbrdRefusesSinceAndTimesOut() async throws {
        try await withRig(["wpan0"]) { rig throws in
            let since = try await rig.run(["epskc", "watch", "--since", "3"])
            #expect(since.status == 69)
            #expect(since.stderr.contains("tbrctl: --since replays tbrd's journal of ePSKc events, and tbrd is not running"))

            let start = ContinuousClock.now
            let timedOut = try await rig.run(["epskc", "watch", "--once", "--timeout", "0.5"])
            #expect(timedOut.status == 75)
            #expect(timedOut.stdout == "")
            #expect(timedOut.stderr.hasSuffix("tbrctl: no ePSKc session ended within 0.5 s (--timeout)\n"))
            #expect(ContinuousClock.now - start < .seconds(5))
        }
    }

    @Test func datasetShowRedactsUnlessAsked() async throws {
        try await withRig(["wpan0"]) { rig throws in
            let shown = try await rig.run(["dataset", "show"])
            #expect(shown.status == 0)
            #expect(shown.stdout.contains("Network Name       OpenThreadDemo\n"))
            #expect(shown.stdout.contains("Network Key        <redacted>\n"))
            #expect(!shown.stdout.contains(Vectors.networkKeyA))

            let (_, json) = try await rig.json(["dataset", "show", "--json"])
            #expect(json["networkKey"] as? String == "<redacted>" && json["pskc"] as? String == "<redacted>")
            #expect(json["extPanId"] as? String == "1111111122222222")
            let (_, revealed) = try await rig.json(["dataset", "show", "--json", "--reveal-secrets"])
            #expect(revealed["networkKey"] as? String == Vectors.networkKeyA)

            let pending = try await rig.run(["dataset", "show", "--pending"])
            #expect(pending.status == 1)
            #expect(pending.stderr.hasSuffix("tbrctl: wpan0 has no pending dataset\n"))
        }
    }

    @Test func networkLeaveAndJoin() async throws {
        try await withRig(["wpan0"]) { rig throws in
            let refused = try await rig.run(["network", "leave"])
            #expect(refused.status == 64)
            #expect(refused.stderr.hasPrefix("tbrctl: 'network leave' makes the router forget its network"))
            #expect(refused.stderr.contains("add --yes to confirm\nRun 'tbrctl network leave --help' for usage.\n"))

            let left = try await rig.run(["network", "leave", "--yes"])
            #expect(left.status == 0 && left.stdout == "wpan0 left its network\n", "\(left.stderr)")
            let (_, routers) = try await rig.jsonArray(["list", "--json"])
            #expect(routers.first?["role"] as? String == "disabled")
            #expect(routers.first?["networkName"] is NSNull && routers.first?["extPanId"] is NSNull)
            #expect(try await rig.run(["dataset", "show"]).status == 1, "no active dataset any more")

            let file = rig.bus.directory.appendingPathComponent("dataset.hex")
            try (Vectors.datasetA + "\n").write(to: file, atomically: true, encoding: .utf8)
            let (joined, json) = try await rig.json(["network", "join", "--dataset-file", file.path, "--json"])
            #expect(joined.status == 0, "\(joined.stderr)")
            #expect(json["status"] as? String == "success" && json["migrationDelaySeconds"] as? Int == 0)
            let again = try await rig.run(["network", "join", "--dataset", "-"], input: Vectors.datasetA)
            #expect(again.status == 0 && again.stdout == "wpan0 is on OpenThreadDemo\n", "\(again.stderr)")
        }
    }

    @Test func networkJoinChecksTheDatasetFirst() async throws {
        // No bus is needed to refuse these: nothing is sent.
        let tbrctl = try TbrctlBinary()
        let bad = try await tbrctl.run(["--bus", "unix:path=/nonexistent/bus", "network", "join", "--dataset", "0e08000000000001000000030000ff"])
        #expect(bad.status == 65)
        #expect(bad.stderr.hasPrefix("tbrctl: the dataset is not a valid complete Active dataset; nothing was sent:\n"))
        #expect(bad.stderr.contains("  TLV 0 (Channel) at offset 10: channel 255 is outside 11–26 (page 0)\n"))
        #expect(bad.stderr.contains("  TLV 1 (PAN ID) is missing: a complete Active dataset needs it\n"))
        #expect(try await tbrctl.run(["network", "join", "--dataset", "zz"]).status == 65)
        let both = try await tbrctl.run(["network", "join", "--dataset", "00", "--dataset-file", "f"])
        #expect(both.status == 64 && both.stderr.hasPrefix("tbrctl: give the dataset once"))
        let neither = try await tbrctl.run(["network", "join"])
        #expect(neither.status == 64 && neither.stderr.hasPrefix("tbrctl: give the dataset with --dataset HEX or --dataset-file FILE"))
        let missing = try await tbrctl.run(["network", "join", "--dataset-file", "/nonexistent/dataset.hex"])
        #expect(missing.status == 65 && missing.stderr.hasPrefix("tbrctl: cannot read the dataset file \"/nonexistent/dataset.hex\""))
    }
}
