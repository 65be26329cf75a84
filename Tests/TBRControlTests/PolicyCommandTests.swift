import Foundation
import TBRTestKit
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `tbrctl structure policy` and the policy in `structure show`, through the built tbrd, on otbr-sim
/// routers built with DHCPv6-PD (tbrd's host firewall is off here; the firewall has its own tests).
@Suite(.serialized) struct PolicyCommandTests {
    static let simulator = ["--dataset", Vectors.datasetA, "--dhcp6-pd"]
    static let firewallOff = "no host firewall rules: tbrd's firewall is off"

    @Test func settingWaitsUntilTheRoutersHaveAppliedItAndExitsByTheirStates() async throws {
        try await withRig(["wpan0", "wpan1"], simulatorArguments: Self.simulator, withTbrd: true) { rig throws in
            #expect(try await rig.run(["structure", "create", "Home"]).status == 0)
            #expect(try await rig.run(["structure", "add", "Home", "wpan0"]).status == 0)
            #expect(try await rig.run(["structure", "add", "Home", "wpan1"]).status == 0)

            let shown = try await rig.run(["structure", "policy", "Home"])
            #expect(shown.status == 0)
            #expect(shown.stdout == """
                Structure        Home
                Internet access  unspecified

                ROUTER  POLICY   DETAIL
                wpan0   applied  not managed
                wpan1   applied  not managed

                """)

            let set = try await rig.run(["structure", "policy", "Home", "--internet-access", "nat64-only"])
            #expect(set.status == 0, "\(set.stderr)")
            #expect(set.stdout.hasPrefix("Structure        Home\nInternet access  nat64Only\n\nROUTER  POLICY   DETAIL\n"))
            #expect(set.stdout.contains("wpan0   applied  \(Self.firewallOff)\n"))

            // JSON: exactly the contract, the option spelled as on D-Bus.
            let (all, json) = try await rig.json(["--json", "structure", "policy", "Home", "--internet-access", "all"])
            #expect(all.status == 0, "\(all.stderr)")
            #expect(Set(json.keys) == ["structure", "internetAccessOption", "routers"])
            #expect(json["structure"] as? String == "Home" && json["internetAccessOption"] as? String == "all")
            let rows = try #require(json["routers"] as? [[String: Any]])
            #expect(rows.map { $0["id"] as? String } == ["wpan0", "wpan1"])
            #expect(rows.allSatisfy { Set($0.keys) == ["id", "state", "detail"] && $0["state"] as? String == "applied" && $0["detail"] as? String == "" })

            // A router that cannot provide the option: exit 1, the reason in the table.
            try await rig.control("wpan1", "SetCapabilities", [.bool(false), .bool(true)])
            let partly = try await rig.run(["structure", "policy", "Home", "--internet-access", "nat64-only"])
            #expect(partly.status == 1, "\(partly.stdout)")
            #expect(partly.stdout.contains("wpan1   unsupported  no NAT64: otbr-agent is built without it (Capabilities nat64 false)"))
            #expect(partly.stderr == "tbrctl: the policy does not hold on every border router: wpan1 unsupported\n")
            // Showing it is not an operation that failed.
            #expect(try await rig.run(["structure", "policy", "Home"]).status == 0)

            // structure show has the same states.
            let show = try await rig.run(["structure", "show", "Home"])
            #expect(show.stdout.contains("\n\nROUTER  POLICY       DETAIL\nwpan0   applied      \(Self.firewallOff)\nwpan1   unsupported  "))
            let (_, view) = try await rig.json(["--json", "structure", "show", "Home"])
            #expect(Set(view.keys) == ["name", "routers", "settings", "policy"])
            #expect((view["policy"] as? [[String: Any]])?.map { $0["state"] as? String } == ["applied", "unsupported"])

            let noWait = try await rig.run(["structure", "policy", "Home", "--internet-access", "none", "--no-wait"])
            #expect(noWait.status == 0 && noWait.stdout.contains("Internet access  none"))

            // all: the most internet the router can give. wpan1 lacks NAT64 but has PD: applied, with a note.
            let most = try await rig.run(["structure", "policy", "Home", "--internet-access", "all"])
            #expect(most.status == 0, "\(most.stdout)\(most.stderr)")
            #expect(most.stdout.contains(
                "wpan1   applied  internet through DHCPv6-PD only: no NAT64: otbr-agent is built without it (Capabilities nat64 false)"),
                "\(most.stdout)")
            // A router with neither path cannot give any internet: unsupported, exit 1.
            try await rig.control("wpan1", "SetCapabilities", [.bool(false), .bool(false)])
            #expect(try await rig.run(["structure", "policy", "Home", "--internet-access", "unspecified"]).status == 0)
            let none = try await rig.run(["structure", "policy", "Home", "--internet-access", "all"])
            #expect(none.status == 1, "\(none.stdout)")
            #expect(none.stdout.contains("wpan1   unsupported  no DHCPv6-PD: otbr-agent is built without it"), "\(none.stdout)")
        }
    }

    @Test func offlineRoutersArePendingButNoErrorAndAWaitThatRunsOutExits75() async throws {
        try await withRig(["wpan0", "wpan1"], simulatorArguments: Self.simulator, withTbrd: true) { rig throws in
            #expect(try await rig.run(["structure", "create", "Home"]).status == 0)
            #expect(try await rig.run(["structure", "add", "Home", "wpan0"]).status == 0)
            #expect(try await rig.run(["structure", "add", "Home", "wpan1"]).status == 0)
            try await rig.control("wpan1", "Crash", [.uint32(600_000)])
            try await eventually("wpan1 is offline") {
                let (_, routers) = try await rig.jsonArray(["--json", "list"])
                return routers.first { $0["id"] as? String == "wpan1" }?["online"] as? Bool == false
            }
            let offline = try await rig.run(["structure", "policy", "Home", "--internet-access", "dhcpv6-pd-only"])
            #expect(offline.status == 0, "an offline router is listed, not an error: \(offline.stdout)")
            #expect(offline.stdout.contains("wpan1   pending  the border router is offline; applied when its otbr-agent returns"))

            // The agent stops answering: the change stays pending, and the wait runs out.
            let sim = try #require(rig.sim)
            kill(sim.pid, SIGSTOP)
            let result: ProcessResult
            do {
                result = try await rig.run(["--json", "structure", "policy", "Home", "--internet-access", "none", "--timeout", "1"])
            } catch {
                kill(sim.pid, SIGCONT)
                throw error
            }
            kill(sim.pid, SIGCONT)
            #expect(result.status == 75, "\(result.stderr)")
            #expect(result.stderr == "tbrctl: not every online border router of \"Home\" applied the policy within 1 s (--timeout)\n")
            let printed = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            #expect(printed["internetAccessOption"] as? String == "none")
        }
    }

    @Test func usageErrors() async throws {
        for bad in [["structure", "policy", "Home", "--internet-access", "some"], ["structure", "policy", "Home", "--no-wait"],
                    ["structure", "policy", "Home", "--internet-access", "none", "--timeout", "0"],
                    ["structure", "policy", "Home", "--internet-access", "none", "--no-wait", "--timeout", "3"], ["structure", "policy"]] {
            let r = try await TbrctlBinary().run(bad)
            #expect(r.status == 64, "\(bad): \(r.stderr)")
        }
    }
}
