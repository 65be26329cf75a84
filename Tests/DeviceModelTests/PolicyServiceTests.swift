import BorderRouterService
import DeviceModel
import OTBRSimulator
import OpenThreadBR
import TBRTestKit
import Testing

/// The internet-access policy through the Swift API: `settings.update { … }` on a structure of the
/// in-process service, enforced on simulated agents, its state per router in `settings.policyStatus`.
@Suite struct PolicyServiceTests {
    @Test func updatingTheOptionAppliesItAndTheStatusFollows() async throws {
        try await withService(["wpan0", "wpan1"], configure: { name, c in
            if name == "wpan1" { c.capabilities = SimulatedCapabilities(nat64: false, dhcp6PD: false) }
        }) { env throws in
            let structure = try await env.home.createStructure(name: "Home")
            try await structure.addDevice("wpan0")
            try await structure.addDevice("wpan1")
            let settings = try #require(structure.traits(ThreadNetworkSettingsTrait.self))
            let statuses = Recorder(settings.policyStatus.stream())
            try await settings.update { $0.internetAccessOption = .internetAccessOptionNat64Only }
            try await eventually("both routers settled", timeout: .seconds(10)) {
                try await settings.policyStatus.read().map(\.state) == [.applied, .unsupported]
            }
            let read = try await settings.policyStatus.read()
            // No host firewall was given to this service: the note says so.
            #expect(read[0] == RouterPolicyStatus(deviceID: "wpan0", state: .applied, detail: "no host firewall rules: tbrd's firewall is off"))
            #expect(read[1].detail.hasPrefix("no NAT64: otbr-agent is built without it"))
            #expect(try await env.client("wpan0").read(.nat64State).isEnabled)
            // The stream follows (it keeps only the newest value for a slow reader).
            try await eventually("the stream saw the end") { statuses.elements.last?.map(\.state) == [.applied, .unsupported] }
        }
    }
}
