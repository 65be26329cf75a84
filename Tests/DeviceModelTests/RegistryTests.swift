import TBRFoundation
import BorderRouterService
import DBus
import DeviceModel
import OTBRSimulator
import OpenThreadBR
import Testing

/// The registry finds every otbr-agent on the bus and follows them coming and going.
@Suite struct RegistryTests {
    @Test func routersComeAndGoAndAreNeverForgotten() async throws {
        try await withService { env throws in
            #expect(await env.home.devices().map(\.id) == ["wpan0"])
            let registry = Recorder(env.service.registryEvents())
            let late = SimulatedAgent(configuration: fastConfiguration("wpan1") { _ in }, bus: .address(env.bus.address))
            try await late.start()
            #expect(try await registry.wait(for: 2) == [.added("wpan1"), .online("wpan1")])
            let device = try await env.home.device(id: "wpan1")
            #expect(device.isOnline && device.name == "wpan1")
            #expect(await env.home.devices().map(\.id) == ["wpan0", "wpan1"])

            await late.stop()
            #expect(try await registry.wait(for: 3).last == .offline("wpan1"))
            let gone = try await env.home.device(id: "wpan1")
            #expect(!gone.isOnline)
            #expect(await env.home.devices().map(\.id) == ["wpan0", "wpan1"])
            let mgmt = try #require(gone.traits(ThreadNetworkManagementTrait.self))
            await #expect { try await mgmt.networkInfo.read() } throws: { ($0 as? HomeError)?.code == .unavailable }

            try await late.start()
            #expect(try await registry.wait(for: 4).last == .online("wpan1"))
            #expect(try await env.home.device(id: "wpan1").isOnline)
            await late.stop()
        }
    }

    @Test func unknownDevicesAreNotFound() async throws {
        try await withService { env throws in
            await #expect { try await env.home.device(id: "wpan9") } throws: { ($0 as? HomeError)?.code == .notFound }
        }
    }

    @Test func routersResolveByIdInterfaceOrBorderAgentID() async throws {
        try await withService { env throws in
            let summary = try #require(await env.service.routerSummaries().first)
            let id = try #require(summary.borderAgentID)
            #expect(await env.service.resolveRouter("wpan0") == "wpan0")
            #expect(await env.service.resolveRouter(id.description.uppercased()) == "wpan0")
            #expect(await env.service.resolveRouter("nothing") == nil)
            #expect(summary.interfaceName == "wpan0" && summary.role == .disabled)
        }
    }

    @Test func deviceIDsBecomeObjectPathElements() {
        #expect(DeviceID(rawValue: "wpan0")?.objectPathElement == "wpan0")
        #expect(DeviceID(rawValue: "wpan_0")?.objectPathElement == "wpan_5f0")
        #expect(DeviceID(rawValue: "a-b.c")?.objectPathElement == "a_2db_2ec")
        #expect(DeviceID(rawValue: "") == nil)
    }
}
