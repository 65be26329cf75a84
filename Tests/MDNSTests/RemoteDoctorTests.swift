import Foundation
import TBRTestKit
import Testing

extension LANTests {
    /// `tbrctl doctor` for a border router on another host, with mDNS between them: the OMR prefix comes
    /// from the router's `omr` TXT key (REST does not report the network data) and is looked up in the
    /// routing table of tbrd's own namespace; a second Thread network published on the LAN is reported.
    @Suite struct RemoteDoctorTests {
        static func checks(_ rig: RemoteRouterRig, _ router: String) async throws -> (Int32, [String: [String: Any]]) {
            let (r, report) = try await rig.json(["doctor", "-d", router])
            var byID: [String: [String: Any]] = [:]
            for c in report["checks"] as? [[String: Any]] ?? [] { byID[c["id"] as? String ?? ""] = c }
            return (r.status, byID)
        }

        @Test func theDoctorReadsMDNSAndTheHostForARouterOnAnotherHost() async throws {
            try await withRemoteRouterRig { rig in
                try await rig.startSimulator()
                try await rig.startDaemon()
                #expect(try await rig.tbrctl(["router", "add", rig.restURL, "--id", "garage"]).status == 0)

                // The OMR prefix from the router's TXT record; tbrd's host has no route to it.
                var omrMessage = ""
                try await eventually("the doctor knows the garage's OMR prefix from mDNS", timeout: .seconds(20)) {
                    let (_, c) = try await Self.checks(rig, "garage")
                    omrMessage = c["omr-route"]?["message"] as? String ?? ""
                    return c["omr-route"]?["status"] as? String == "fail"
                }
                let prefix = try #require(omrMessage.split(separator: " ").first { $0.contains("::/64") }.map(String.init))
                let (_, one) = try await Self.checks(rig, "garage")
                #expect(one["thread-networks"]?["status"] as? String == "pass", "\(String(describing: one["thread-networks"]))")
                #expect(one["avahi"]?["status"] as? String == "pass")
                #expect(one["rcp-version"]?["status"] as? String == "unsupported")

                let ip = try Executables.find("ip", package: "iproute2")
                let added = try await ProcessRunner.run(
                    ip, ["-n", rig.tbrdHost.namespace, "-6", "route", "add", prefix, "via", "fe80::1", "dev", "lan0"])
                #expect(added.status == 0, "\(added.stderr)")
                let (_, routed) = try await Self.checks(rig, "garage")
                #expect(routed["omr-route"]?["status"] as? String == "pass", "\(String(describing: routed["omr-route"]))")

                // A second network on the LAN: another otbr-sim on the agent host, on a network of its own.
                let otherBus = try await PrivateBus.start()
                defer { otherBus.stop() }
                let dataset = try await rig.tbrctl(["dataset", "new", "--name", "Other", "--extpanid", "00000000000000ee"])
                let tlvs = try #require(dataset.stdout.split(separator: "\n").last.map(String.init))
                let (command, arguments) = try rig.inside(
                    rig.agentHost,
                    [try Executables.product("otbr-sim"), "--bus", otherBus.address, "--mdns", "--interface", "wpan5", "--dataset", tlvs,
                     "--role-delay", "100"])
                let other = try TestProcess(command, arguments, directory: rig.directory, environment: rig.agentHost.environment)
                do {
                    try await eventually("the doctor sees two Thread networks", timeout: .seconds(20)) {
                        let (_, c) = try await Self.checks(rig, "garage")
                        return c["thread-networks"]?["status"] as? String == "warn"
                    }
                    let (_, two) = try await Self.checks(rig, "garage")
                    let message = two["thread-networks"]?["message"] as? String ?? ""
                    #expect(message.contains("2 Thread networks") && message.contains("00000000000000ee"), "\(message)")
                } catch {
                    _ = await other.terminate()
                    throw error
                }
                _ = await other.terminate()
            }
        }
    }
}
