import Foundation
import TBRTestKit
import Testing

extension LANTests {
    /// `tbrctl discover` over a real LAN: avahi-daemon in two network namespaces, otbr-sim publishing on
    /// one, tbrctl browsing on the other.
    @Suite struct DiscoverTests {
        @Test func discoverListsTheAgentsOfTheLANWithTheContractFields() async throws {
            try await withLANRig { rig in
                try await rig.startSimulator([
                    "--interface", "wpan0", "--interface", "wpan1", "--vendor", "Acme Labs", "--product", "Hub 9",
                ])
                // A hostile neighbour: TXT values of the wrong length, a duplicate key, a key with no value.
                let publish = try Executables.find("avahi-publish", package: "avahi-utils")
                let hostile = try TestProcess(
                    publish,
                    ["-s", "Hostile Agent #0001", "_meshcop._udp", "49152", "sb=abc", "xa=1", "id=short", "rv=1", "rv=2", "nn", "xp=\u{7}"],
                    directory: rig.directory, environment: rig.publisher.environment)
                defer { kill(hostile.pid, SIGTERM) }
                try await eventually("the hostile service is published", wakingOn: hostile.wakeups) { hostile.stderr.contains("Established") || !hostile.isRunning }

                var rows: [[String: Any]] = []
                try await eventually("discover finds all three agents", timeout: .seconds(20)) {
                    let result = try await rig.tbrctl(["--json", "discover", "--timeout", "1.5"])
                    #expect(result.status == 0, "\(result.stderr)")
                    rows = (try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]]) ?? []
                    return rows.count == 3
                }
                let keys: Set<String> = [
                    "instance", "networkName", "extPanId", "vendorName", "modelName", "role", "epskcSupported", "epskcActive",
                    "addresses", "port", "borderAgentId", "managed", "router", "restUrl", "problems",
                ]
                for row in rows { #expect(Set(row.keys) == keys) }
                // Grouped by network: the simulated routers' network first, the agent without one last.
                let sims = rows.prefix(2)
                for row in sims {
                    #expect(row["networkName"] as? String == "OpenThreadDemo")
                    #expect(row["extPanId"] as? String == "1111111122222222")
                    #expect(row["vendorName"] as? String == "Acme Labs" && row["modelName"] as? String == "Hub 9")
                    #expect(row["role"] as? String == "leader")
                    #expect(row["epskcSupported"] as? Bool == true && row["epskcActive"] as? Bool == false)
                    #expect(row["addresses"] as? [String] == [rig.publisher.address])
                    #expect((row["instance"] as? String)?.hasPrefix("Acme Labs Hub 9 #") == true)
                    #expect((row["borderAgentId"] as? String)?.count == 32)
                    #expect(row["managed"] as? Bool == false && row["router"] is NSNull)
                    #expect(row["restUrl"] is NSNull, "this otbr-sim serves no REST API")
                    #expect((row["problems"] as? [Any])?.isEmpty == true)
                }
                let hostileRow = try #require(rows.last)
                #expect(hostileRow["instance"] as? String == "Hostile Agent #0001")
                let problems = (hostileRow["problems"] as? [[String: Any]]) ?? []
                let problemKeys = Set(problems.compactMap { $0["key"] as? String })
                #expect(problemKeys.isSuperset(of: ["sb", "xa", "id", "rv", "xp"]), "\(problems)")
                #expect(hostileRow["role"] is NSNull && hostileRow["networkName"] is NSNull)

                // A key activated on the agent shows as epskcActive.
                #expect(try await rig.agentCall("wpan0", "ActivateEphemeralKeyMode", "u", ["60000"]).status == 0)
                try await eventually("discover shows the key active", timeout: .seconds(10)) {
                    let result = try await rig.tbrctl(["--json", "discover", "--timeout", "1.5"])
                    let rows = (try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]]) ?? []
                    return rows.contains { $0["epskcActive"] as? Bool == true }
                }

                // The TXT record follows the agent's state: after Detach, role disabled (sb 0x00001820).
                #expect(try await rig.agentCall("wpan1", "Detach").status == 0)
                try await eventually("discover shows the detached agent", timeout: .seconds(10)) {
                    let result = try await rig.tbrctl(["--json", "discover", "--timeout", "1.5"])
                    let rows = (try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]]) ?? []
                    return rows.contains { $0["role"] as? String == "disabled" && $0["networkName"] as? String == "OpenThreadDemo" }
                }

                // The text form, grouped under the network.
                let text = try await rig.tbrctl(["discover", "--timeout", "1.5"])
                #expect(text.status == 0)
                #expect(text.stdout.contains("Network \"OpenThreadDemo\" (1111111122222222)"), "\(text.stdout)")
                #expect(text.stdout.contains("problem: TXT key \"sb\""), "\(text.stdout)")
            }
        }

        @Test func discoverExits69WithASentenceWhenAvahiDaemonIsNotRunning() async throws {
            try await withPrivateBus { bus in
                let result = try await ProcessRunner.run(
                    try Executables.product("tbrctl"), ["--bus", bus.address, "discover"],
                    environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus.address])
                #expect(result.status == 69)
                #expect(result.stderr.contains("avahi-daemon is not running"), "\(result.stderr)")
                #expect(result.stdout.isEmpty)
            }
        }
    }
}
