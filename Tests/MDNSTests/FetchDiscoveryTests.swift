import Foundation
import MeshCoP
import TBRTestKit
import Testing

extension LANTests {
    /// `tbrctl network fetch` choosing its border agent from mDNS (real avahi-daemons in two network
    /// namespaces): several with a key and no --from exit 64 listing them; none, or a named one without a
    /// key, exit 69 before anything is sent.
    @Suite struct FetchDiscoveryTests {
        @Test func theBorderAgentIsChosenFromMDNS() async throws {
            try await withLANRig { rig in
                try await rig.startSimulator(["--interface", "wpan0", "--interface", "wpan1", "--vendor", "Acme Labs", "--product", "Hub 9"])
                let key = try EphemeralKey.generate().digits
                let none = try await rig.tbrctl(["network", "fetch", "--key", key])
                #expect(none.status == 69 && none.stderr.contains("publishes _meshcop-e._udp"), "\(none.stderr)")

                for interface in ["wpan0", "wpan1"] {
                    #expect(try await rig.agentCall(interface, "ActivateEphemeralKeyMode", "u", ["60000"]).status == 0)
                }
                var several = try await rig.tbrctl(["network", "fetch", "--key", key])
                try await eventually("both keys show on mDNS", timeout: .seconds(20)) {
                    several = try await rig.tbrctl(["network", "fetch", "--key", key])
                    return several.status == 64
                }
                #expect(several.stderr.contains("several border agents have an ePSKc active"), "\(several.stderr)")
                #expect(several.stderr.components(separatedBy: "\"Acme Labs Hub 9 #").count == 3, "both are listed: \(several.stderr)")

                #expect(try await rig.agentCall("wpan1", "DeactivateEphemeralKeyMode", "b", ["false"]).status == 0)
                let discovered = try await rig.tbrctl(["--json", "discover", "--timeout", "1.5"])
                let rows = (try JSONSerialization.jsonObject(with: Data(discovered.stdout.utf8)) as? [[String: Any]]) ?? []
                var quiet: String?
                try await eventually("wpan1's key is withdrawn from mDNS", timeout: .seconds(20)) {
                    let result = try await rig.tbrctl(["--json", "discover", "--timeout", "1.5"])
                    let rows = (try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]]) ?? []
                    quiet = rows.first { $0["epskcActive"] as? Bool == false }?["instance"] as? String
                    return quiet != nil
                }
                #expect(rows.count >= 2)
                let named = try await rig.tbrctl(["network", "fetch", "--key", key, "--from", try #require(quiet)])
                #expect(named.status == 69 && named.stderr.contains("has no ePSKc active"), "\(named.stderr)")
                let unknown = try await rig.tbrctl(["network", "fetch", "--key", key, "--from", "No Such Agent"])
                #expect(unknown.status == 69 && unknown.stderr.contains("no border agent \"No Such Agent\""), "\(unknown.stderr)")

                // Through tbrd (its own view of mDNS, FetchNetworkCredentials): the same statuses.
                #expect(try await rig.agentCall("wpan1", "ActivateEphemeralKeyMode", "u", ["60000"]).status == 0)
                try await rig.startDaemon()
                var viaTbrd = try await rig.tbrctl(["network", "fetch", "--key", key])
                try await eventually("tbrd sees both keys", timeout: .seconds(20)) {
                    viaTbrd = try await rig.tbrctl(["network", "fetch", "--key", key])
                    return viaTbrd.status == 64
                }
                #expect(viaTbrd.stderr.components(separatedBy: "\"Acme Labs Hub 9 #").count == 3, "\(viaTbrd.stderr)")
                let unknownViaTbrd = try await rig.tbrctl(["network", "fetch", "--key", key, "--from", "No Such Agent"])
                #expect(unknownViaTbrd.status == 69 && unknownViaTbrd.stderr.contains("No Such Agent"), "\(unknownViaTbrd.stderr)")
            }
        }
    }
}
