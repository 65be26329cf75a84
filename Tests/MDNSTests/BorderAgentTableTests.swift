import BorderAgentDiscovery
import MDNS
import MeshCoP
import Testing

/// Pairing `_meshcop._udp` and `_meshcop-e._udp`, and TXT records decoded by the MeshCoP codec.
@Suite struct BorderAgentTableTests {
    static let name = "OpenThread BorderRouter #0BBF"

    static func meshcop(_ txt: [TXTEntry], port: UInt16 = 49152) -> DiscoveredService {
        DiscoveredService(
            name: name, type: .meshcop, hostName: "otbr.local", addresses: ["192.0.2.1"], port: port,
            txt: MeshCoPTXTRecord(entries: txt).wireFormat)
    }

    static func ephemeral(port: UInt16) -> DiscoveredService {
        DiscoveredService(name: name, type: .meshcopEphemeral, hostName: "otbr.local", addresses: ["192.0.2.1"], port: port, txt: [0])
    }

    @Test func anAgentCarriesItsDecodedTXTAndItsEphemeralKeyServiceWhicheverComesFirst() throws {
        var table = BorderAgentTable()
        #expect(table.ephemeral(.added(Self.ephemeral(port: 50000))) == [.ephemeralKeyServiceAppeared(instanceName: Self.name, port: 50000)])
        guard case .added(let agent)? = table.meshcop(.added(Self.meshcop([TXTEntry(key: "vn", text: "Acme"), TXTEntry(key: "rv", text: "1")]))).first
        else { Issue.record("not added"); return }
        #expect(agent.txt.vendorName == "Acme" && agent.ephemeralKeyPort == 50000 && agent.isEphemeralKeyActive)
        // The same service again is no change; a new TXT is.
        #expect(table.meshcop(.updated(Self.meshcop([TXTEntry(key: "vn", text: "Acme"), TXTEntry(key: "rv", text: "1")]))).isEmpty)
        guard case .updated(let renamed)? = table.meshcop(.updated(Self.meshcop([TXTEntry(key: "vn", text: "Acme 2")]))).first else {
            Issue.record("not updated"); return
        }
        #expect(renamed.txt.vendorName == "Acme 2" && renamed.ephemeralKeyPort == 50000)
        // The key ends: the agent stays, without its ephemeral-key port.
        #expect(table.ephemeral(.removed(Self.ephemeral(port: 50000), .withdrawn))
            == [.ephemeralKeyServiceWithdrawn(instanceName: Self.name, .withdrawn)])
        #expect(table.agent(named: Self.name)?.ephemeralKeyPort == nil)
        #expect(table.ephemeral(.removed(Self.ephemeral(port: 50000), .withdrawn)).isEmpty)
    }

    /// A browse whose consumer fell behind delivers a snapshot: a key service missing from it ended,
    /// and is withdrawn; one in it with a new port is a new key; an agent missing from it is gone.
    @Test func aSnapshotAfterFallingBehindWithdrawsWhatIsMissingAndAddsWhatIsNew() {
        var table = BorderAgentTable()
        _ = table.meshcop(.added(Self.meshcop([TXTEntry(key: "vn", text: "Acme")])))
        _ = table.ephemeral(.added(Self.ephemeral(port: 50000)))
        #expect(table.ephemeral(.resynchronized([])) == [.ephemeralKeyServiceWithdrawn(instanceName: Self.name, .missedWhileBehind)])
        #expect(!table.hasEphemeralKeyService(Self.name))
        #expect(table.ephemeral(.resynchronized([Self.ephemeral(port: 50002)])) == [.ephemeralKeyServiceAppeared(instanceName: Self.name, port: 50002)])
        #expect(table.ephemeral(.resynchronized([Self.ephemeral(port: 50002)])).isEmpty, "nothing changed")
        guard case .removed(_, .missedWhileBehind)? = table.meshcop(.resynchronized([])).first else { Issue.record("not removed"); return }
        #expect(table.all.isEmpty)
    }

    @Test func aNewPortIsANewKey() {
        var table = BorderAgentTable()
        _ = table.ephemeral(.added(Self.ephemeral(port: 50000)))
        #expect(table.ephemeral(.updated(Self.ephemeral(port: 50000))).isEmpty)
        #expect(table.ephemeral(.updated(Self.ephemeral(port: 50001))) == [.ephemeralKeyServiceAppeared(instanceName: Self.name, port: 50001)])
        #expect(table.ephemeralKeyPort(Self.name) == 50001)
    }

    @Test func hostileTXTGivesProblemsNotCrashes() throws {
        var table = BorderAgentTable()
        // Truncated wire format, a value of the wrong length, a key that is not UTF-8.
        let service = DiscoveredService(
            name: Self.name, type: .meshcop, hostName: "x.local", addresses: [], port: 1,
            txt: [6] + Array("sb=abc".utf8) + [3, 0xFF, 0x3D, 0x31] + [200, 1, 2])
        guard case .added(let agent)? = table.meshcop(.added(service)).first else { Issue.record("not added"); return }
        #expect(agent.txt.stateBitmap == nil)
        #expect(agent.txt.problems.count == 3, "\(agent.txt.problems)")
        #expect(table.meshcop(.removed(service, .unresolvable)) == [.removed(agent, .unresolvable)])
        #expect(table.all.isEmpty)
    }
}
