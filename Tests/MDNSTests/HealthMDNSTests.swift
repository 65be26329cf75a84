import Foundation
import TBRTestKit
import Testing

extension LANTests {
    /// `meshcop-published` (issue 49): an agent that stops publishing `_meshcop._udp` while it is up
    /// opens the problem; publishing again closes it.
    @Suite struct HealthMDNSTests {
        static func meshcopOpen(_ rig: LANRig) async throws -> Bool {
            let r = try await rig.tbrctl(["--json", "health"])
            let rows = (try? JSONSerialization.jsonObject(with: Data(r.stdout.utf8))) as? [[String: Any]] ?? []
            return rows.contains { $0["check"] as? String == "meshcop-published" && $0["subject"] as? String == "wpan0" }
        }

        @Test func aWithdrawnMeshcopServiceOpensMeshcopPublishedAndItsReturnClosesIt() async throws {
            try await withLANRig { rig in
                try await rig.startSimulator(["--vendor", "Acme Labs", "--product", "Hub 9"])
                try await rig.startDaemon()
                try await eventually("tbrd has seen the agent's _meshcop._udp", timeout: .seconds(15)) {
                    try await rig.servedNames() == ("Acme Labs", "Hub 9")
                }
                #expect(try await !Self.meshcopOpen(rig))
                #expect(try await rig.agentCall("wpan0", "SetBorderAgentEnabled", "b", ["false"]).status == 0)
                try await eventually("meshcop-published opens", timeout: .seconds(15)) { try await Self.meshcopOpen(rig) }
                #expect(try await rig.agentCall("wpan0", "SetBorderAgentEnabled", "b", ["true"]).status == 0)
                try await eventually("and closes once it is back", timeout: .seconds(15)) { try await !Self.meshcopOpen(rig) }
                let history = try await rig.tbrctl(["health", "history"])
                #expect(history.stdout.contains("opened meshcop-published") && history.stdout.contains("closed meshcop-published"), "\(history.stdout)")
            }
        }
    }
}
