import TBRFoundation
import Store
import TBRTestKit
import Testing

@Suite("Known routers, memberships and applied policies")
struct RouterTests {
    @Test("a router on another host is added once, by id, URL and Border Agent ID, and survives a reopen")
    func remoteRouters() async throws {
        try await withStore { store, f in
            try await store.recordRouter("wpan0", interfaceName: "wpan0", borderAgentID: "00112233445566778899aabbccddeeff")
            let added = try await store.addRemoteRouter(
                "ba-a1b2c3d4", restURL: "http://192.0.2.7:8081", borderAgentID: "a1b2c3d4000000000000000000000000")
            #expect(added.restURL == "http://192.0.2.7:8081" && !added.isOnline && added.interfaceName == nil)
            await #expect(throws: StoreError.routerAlreadyKnown("ba-a1b2c3d4", reason: "that id is taken")) {
                try await store.addRemoteRouter("ba-a1b2c3d4", restURL: "http://192.0.2.8:8081", borderAgentID: "ff")
            }
            await #expect(throws: StoreError.routerAlreadyKnown("ba-a1b2c3d4", reason: "it is reached at the same URL")) {
                try await store.addRemoteRouter("garage", restURL: "http://192.0.2.7:8081", borderAgentID: "ff")
            }
            await #expect(
                throws: StoreError.routerAlreadyKnown(
                    "wpan0", reason: "it has the same Border Agent ID 00112233445566778899aabbccddeeff")
            ) {
                try await store.addRemoteRouter("garage", restURL: "http://192.0.2.9:8081", borderAgentID: "00112233445566778899aabbccddeeff")
            }
            #expect(try await store.knownRouters().map(\.id) == ["ba-a1b2c3d4", "wpan0"], "nothing was added by a refused call")
            let again = try f.open()
            #expect(try await again.knownRouter("ba-a1b2c3d4")?.restURL == "http://192.0.2.7:8081")
            #expect(try await again.knownRouter("wpan0")?.restURL == nil)
            try await again.forgetRouter("ba-a1b2c3d4")
            #expect(try await again.knownRouter("ba-a1b2c3d4") == nil)
        }
    }

    @Test("routers are recorded online, remembered offline, and keep what is known")
    func knownRouters() async throws {
        try await withStore { store, f in
            let t0 = f.clock.wallTime()
            let r = try await store.recordRouter("wpan0", interfaceName: "wpan0", borderAgentID: "0011223344556677")
            #expect(r == KnownRouter(
                id: "wpan0", interfaceName: "wpan0", borderAgentID: "0011223344556677", isOnline: true,
                firstSeenAt: t0, lastSeenAt: t0))
            f.clock.advance(by: .seconds(10))
            try await store.markRouterOffline("wpan0")
            let offline = try await store.knownRouter("wpan0")
            #expect(offline?.isOnline == false)
            #expect(offline?.lastSeenAt == t0 + 10)
            #expect(offline?.borderAgentID == "0011223344556677")

            f.clock.advance(by: .seconds(10))
            let back = try await store.recordRouter("wpan0")  // nil values keep what is known
            #expect(back.isOnline)
            #expect(back.interfaceName == "wpan0")
            #expect(back.borderAgentID == "0011223344556677")
            #expect(back.firstSeenAt == t0)
            #expect(back.lastSeenAt == t0 + 20)

            try await store.recordRouter("wpan1", interfaceName: "wpan1")
            try await store.markAllRoutersOffline()
            let all = try await store.knownRouters()
            #expect(all.map(\.id) == ["wpan0", "wpan1"])
            #expect(all.allSatisfy { !$0.isOnline })
            #expect(all[0].lastSeenAt == t0 + 20, "marking all offline keeps when they were seen")

            await #expect(throws: StoreError.routerNotFound("wpan9")) { try await store.markRouterOffline("wpan9") }
            try await store.forgetRouter("wpan1")
            #expect(try await store.knownRouter("wpan1") == nil)
            await #expect(throws: StoreError.routerNotFound("wpan1")) { try await store.forgetRouter("wpan1") }
        }
    }

    @Test("a router belongs to at most one structure, with clear errors")
    func memberships() async throws {
        try await withStore { store, _ in
            let home = try await store.createStructure(named: "Home")
            let office = try await store.createStructure(named: "Office")
            await #expect(throws: StoreError.routerNotFound("wpan0")) {
                try await store.addRouter("wpan0", toStructure: home.id)
            }
            try await store.recordRouter("wpan0")
            try await store.recordRouter("wpan1")
            try await store.addRouter("wpan1", toStructure: home.id)
            try await store.addRouter("wpan0", toStructure: home.id)
            try await store.addRouter("wpan0", toStructure: home.id)  // again: no change, no error
            #expect(try await store.routers(inStructure: home.id) == ["wpan0", "wpan1"])
            #expect(try await store.structure(containing: "wpan0")?.name == "Home")

            await #expect(throws: StoreError.routerInAnotherStructure(router: "wpan0", structure: "Home")) {
                try await store.addRouter("wpan0", toStructure: office.id)
            }
            #expect(try await store.routers(inStructure: office.id).isEmpty)
            await #expect(throws: StoreError.structureNotFound("with id 77")) {
                try await store.addRouter("wpan0", toStructure: StructureRecord.ID(rawValue: 77))
            }
            await #expect(throws: StoreError.routerNotInStructure(router: "wpan0", structure: "Office")) {
                try await store.removeRouter("wpan0", fromStructure: office.id)
            }

            try await store.removeRouter("wpan0", fromStructure: home.id)
            try await store.addRouter("wpan0", toStructure: office.id)
            #expect(try await store.structure(containing: "wpan0")?.name == "Office")

            try await store.forgetRouter("wpan0")  // the membership goes with it
            #expect(try await store.routers(inStructure: office.id).isEmpty)
            try await store.deleteStructure(home.id)  // memberships go; the router stays known
            #expect(try await store.structure(containing: "wpan1") == nil)
            #expect(try await store.knownRouter("wpan1") != nil)
        }
    }

    @Test("applied policies are recorded per router and listed per structure")
    func appliedPolicies() async throws {
        try await withStore { store, f in
            let home = try await store.createStructure(named: "Home")
            for r: DeviceID in ["wpan0", "wpan1", "wpan2"] { try await store.recordRouter(r) }
            try await store.addRouter("wpan0", toStructure: home.id)
            try await store.addRouter("wpan1", toStructure: home.id)

            await #expect(throws: StoreError.routerNotFound("wpan9")) {
                try await store.recordAppliedPolicy(.applied, option: "all", router: "wpan9")
            }
            #expect(try await store.appliedPolicy(router: "wpan0") == nil)
            try await store.recordAppliedPolicy(.pending, option: "none", router: "wpan0")
            f.clock.advance(by: .seconds(3))
            let applied = try await store.recordAppliedPolicy(.applied, option: "none", router: "wpan0")
            #expect(applied.updatedAt == f.clock.wallTime())
            try await store.recordAppliedPolicy(.failed, detail: "SetNat64Enabled: NotImplemented", option: "none", router: "wpan1")
            try await store.recordAppliedPolicy(.applied, option: nil, router: "wpan2")

            #expect(try await store.appliedPolicy(router: "wpan0") == applied)
            let byRouter = try await store.appliedPolicies(inStructure: home.id)
            #expect(Set(byRouter.keys) == ["wpan0", "wpan1"])
            #expect(byRouter["wpan1"]?.state == .failed && byRouter["wpan1"]?.detail == "SetNat64Enabled: NotImplemented")
            #expect(try await store.appliedPolicy(router: "wpan2")?.option == nil)

            try await store.clearAppliedPolicy(router: "wpan1")
            #expect(try await store.appliedPolicy(router: "wpan1") == nil)
            try await store.forgetRouter("wpan0")
            #expect(try await store.appliedPolicy(router: "wpan0") == nil)
        }
    }
}
