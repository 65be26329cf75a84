import Store
import TBRTestKit
import Testing

@Suite("The network directory of structures")
struct NetworkDirectoryStoreTests {
    static let tlvs: [UInt8] = [0x0e, 0x08, 0, 0, 0, 0, 0, 1, 0, 0, 0x05, 0x10] + [UInt8](repeating: 0xab, count: 16)

    @Test("an entry keeps its credentials once held, and its sightings update it")
    func recordKeepsCredentials() async throws {
        try await withStore { store, f in
            let home = try await store.createStructure(named: "Home")
            let first = try await store.recordNetwork(
                ThreadNetworkRecord(
                    extendedPANID: "ABCDEF0123456789", networkName: "Net", channel: 15, activeTimestamp: 1, dataset: Self.tlvs,
                    source: .fetched, sourceDetail: "\"BR\" at [fd00::1]:49200"),
                in: home.id)
            #expect(first.extendedPANID == "abcdef0123456789", "stored in lower case")
            #expect(first.firstSeenAt == f.clock.wallTime() && first.lastSeenAt == f.clock.wallTime())
            f.clock.advance(by: .seconds(60))
            // Seen on mDNS later: no credentials there, so the fetched ones and their source stay.
            let seen = try await store.recordNetwork(
                ThreadNetworkRecord(extendedPANID: "abcdef0123456789", networkName: "Net", source: .mdns, sourceDetail: "BR #1"), in: home.id)
            #expect(seen.dataset == Self.tlvs && seen.source == .fetched && seen.channel == 15 && seen.activeTimestamp == 1)
            #expect(seen.lastSeenAt == first.lastSeenAt + 60 && seen.firstSeenAt == first.firstSeenAt)
            #expect(seen.mdnsSeenAt == f.clock.wallTime())
            // A router's dataset brings credentials: it becomes the source.
            let routed = try await store.recordNetwork(
                ThreadNetworkRecord(extendedPANID: "abcdef0123456789", networkName: "Net2", dataset: Self.tlvs, source: .router, sourceDetail: "wpan0"),
                in: home.id)
            #expect(routed.source == .router && routed.networkName == "Net2" && routed.sourceDetail == "wpan0")
            #expect(try await store.networks(inStructure: home.id) == [routed])
        }
    }

    @Test("forgetting deletes the credentials; a structure's networks go with it; bad input changes nothing")
    func forgetAndCascade() async throws {
        try await withStore { store, _ in
            let home = try await store.createStructure(named: "Home")
            let cabin = try await store.createStructure(named: "Cabin")
            for s in [home, cabin] {
                try await store.recordNetwork(
                    ThreadNetworkRecord(extendedPANID: "1111111122222222", networkName: "A", dataset: Self.tlvs, source: .added), in: s.id)
            }
            #expect(try await store.forgetNetwork("1111111122222222", in: home.id))
            #expect(try await store.forgetNetwork("1111111122222222", in: home.id) == false)
            #expect(try await store.networks(inStructure: home.id).isEmpty)
            #expect(try await store.networks(inStructure: cabin.id).count == 1, "another structure's entry stays")
            await #expect(throws: StoreError.self) {
                try await store.recordNetwork(ThreadNetworkRecord(extendedPANID: "xyz", networkName: "", source: .added), in: home.id)
            }
            try await store.deleteStructure(cabin.id)
            let count: Int64? = try await store.database.read { db in try db.scalar("SELECT count(*) FROM thread_networks") }
            #expect(count == 0, "the deleted structure's credentials are gone too")
        }
    }
}
