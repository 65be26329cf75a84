import TBRFoundation
import BorderRouterService
import DeviceModel
import MeshCoP
import Testing

/// Structures and their ThreadNetworkSettings are stored and readable (enforcement comes later).
@Suite struct StructureTests {
    @Test func settingsAreStoredReadAndStreamed() async throws {
        let home = Home(backend: EmptyBackend())
        let structure = try await home.createStructure(name: " Home ")
        #expect(structure.name == "Home")
        try await structure.addDevice("wpan0")
        try await structure.addDevice("wpan0")
        #expect(try await home.structure(id: structure.id).deviceIDs == ["wpan0"])
        let settings = try #require(structure.traits(ThreadNetworkSettingsTrait.self))
        #expect(try await settings.read() == .init())
        let options = Recorder(settings.internetAccessOption.stream())
        // The stream keeps only the newest value for a slow reader: let it take the current one first.
        #expect(try await options.wait(for: 1) == [.internetAccessOptionUnspecified])
        let updated = try await settings.update { $0.internetAccessOption = .internetAccessOptionNone }
        #expect(updated.internetAccessOption == .internetAccessOptionNone)
        try await settings.update { $0.defaultThreadNetworkId = ExtendedPANID(0x1111_1111_2222_2222) }
        #expect(try await settings.defaultThreadNetworkId.read() == ExtendedPANID(0x1111_1111_2222_2222))
        #expect(try await settings.internetAccessOption.read() == .internetAccessOptionNone)
        #expect(try await options.wait(for: 2) == [.internetAccessOptionUnspecified, .internetAccessOptionNone])
        // The network id is another attribute: the option's next value is the next option set, nothing between.
        try await settings.update { $0.internetAccessOption = .internetAccessOptionAll }
        #expect(try await options.wait(for: 3) == [.internetAccessOptionUnspecified, .internetAccessOptionNone, .internetAccessOptionAll])
        #expect(try await home.structures().map(\.name) == ["Home"])
    }

    @Test func mistakesAreReported() async throws {
        let home = Home(backend: EmptyBackend())
        _ = try await home.createStructure(name: "Home")
        await #expect { try await home.createStructure(name: "Home") } throws: { ($0 as? HomeError)?.code == .invalidArgument }
        await #expect { try await home.createStructure(name: "  ") } throws: { ($0 as? HomeError)?.code == .invalidArgument }
        await #expect { try await home.structure(id: "nope") } throws: { ($0 as? HomeError)?.code == .notFound }
        let missing = ThreadNetworkSettingsTrait(structure: "nope", store: home.backend.structureStore)
        let change: @Sendable (inout ThreadNetworkSettingsTrait.Attributes) -> Void = { $0.internetAccessOption = .internetAccessOptionAll }
        await #expect { try await missing.update(change) } throws: {
            ($0 as? HomeError)?.code == .notFound
        }
    }
}

/// A home backend with no devices, over an in-memory structure store (a fake behind the protocol).
struct EmptyBackend: HomeBackend {
    let structureStore: any StructureStore = InMemoryStructureStore()
    func deviceIDs() async -> [DeviceID] { [] }
    func borderRouter(_ id: DeviceID) async throws(HomeError) -> any BorderRouterBackend {
        throw HomeError(.notFound, "there is no border router with the id \(id)")
    }
}
