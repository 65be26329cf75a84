import DBus
import TBRTestKit
import Testing

@Suite struct NameOwnerTests {
    @Test func ownerChangesAreSeenWhenAPeerDrops() async throws {
        try await withPair([]) { pair in
            #expect(try await pair.client.nameOwner(of: Pair.name) == pair.server.uniqueName)
            #expect(try await pair.client.listNames().contains(Pair.name.rawValue))
            let changes = try await pair.client.nameOwnerChanges(of: Pair.name)
            let serverName = pair.server.uniqueName
            await pair.server.close()
            var iterator = changes.makeAsyncIterator()
            let change = try await iterator.next()
            #expect(change == NameOwnerChange(name: Pair.name.rawValue, oldOwner: serverName, newOwner: nil))
            #expect(try await pair.client.nameOwner(of: Pair.name) == nil)
            #expect(try await !pair.client.listNames().contains(Pair.name.rawValue))
        }
    }

    @Test func requestAndReleaseNames() async throws {
        try await withPrivateBus { bus in
            let a = try await Connection(bus: .address(bus.address))
            let b = try await Connection(bus: .address(bus.address))
            let name: BusName = "io.tbrd.Shared"
            #expect(try await a.requestName(name, flags: [.allowReplacement, .doNotQueue]) == .primaryOwner)
            // Asking again updates the flags, so keep allowing replacement.
            #expect(try await a.requestName(name, flags: [.allowReplacement, .doNotQueue]) == .alreadyOwner)
            #expect(try await b.requestName(name, flags: [.doNotQueue]) == .exists)
            // otbr-agent takes its name with REPLACE_EXISTING; that works when the owner allows it.
            #expect(try await b.requestName(name, flags: [.replaceExisting, .doNotQueue]) == .primaryOwner)
            #expect(try await a.nameOwner(of: name) == b.uniqueName)
            #expect(try await b.releaseName(name))
            #expect(try await !b.releaseName(name))
            #expect(try await a.nameOwner(of: name) == nil)
            await a.close()
            await b.close()
        }
    }
}
