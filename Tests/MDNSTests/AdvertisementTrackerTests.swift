import BorderAgentDiscovery
import BorderRouterService
import MDNS
import MeshCoP
@testable import TBRDaemon
import Testing
import RouterFleet

/// tbrd's matching of routers to Border Agents, and what it tells the service.
@Suite struct AdvertisementTrackerTests {
    static let id = try! BorderAgentID(bytes: Array(repeating: 0xAB, count: 16))
    static let otherID = try! BorderAgentID(bytes: Array(repeating: 0xCD, count: 16))
    static let xa = ExtendedAddress(rawValue: 0xAEEB_2F59_4B57_0BBF)

    static func service(_ name: String, id: BorderAgentID?, xa: ExtendedAddress?, vendor: String) -> DiscoveredService {
        var entries = [TXTEntry(key: "vn", text: vendor), TXTEntry(key: "mn", text: "BR")]
        if let id { entries.append(TXTEntry(key: "id", value: id.bytes)) }
        if let xa { entries.append(TXTEntry(key: "xa", value: xa.bytes)) }
        return DiscoveredService(
            name: name, type: .meshcop, hostName: "h.local", addresses: [], port: 49152, txt: MeshCoPTXTRecord(entries: entries).wireFormat)
    }

    static func ephemeral(_ name: String, port: UInt16) -> DiscoveredService {
        DiscoveredService(name: name, type: .meshcopEphemeral, hostName: "h.local", addresses: [], port: port, txt: [])
    }

    @Test func routersMatchByIdThenByExtendedAddressAndGetTheAdvertisedNames() {
        var table = BorderAgentTable()
        var tracker = AdvertisementTracker()
        _ = table.meshcop(.added(Self.service("A #0BBF", id: Self.otherID, xa: Self.xa, vendor: "Wrong")))
        _ = table.meshcop(.added(Self.service("B #1234", id: Self.id, xa: nil, vendor: "Right")))
        #expect(tracker.agentsChanged(table) == [])  // no router known yet
        // By id, although another agent has the router's extended address.
        #expect(tracker.routerChanged("wpan0", .init(borderAgentID: Self.id, extendedAddress: Self.xa))
            == [.names("wpan0", AdvertisedNames(vendorName: "Right", productName: "BR"))])
        // A router whose id no agent advertises matches by extended address.
        #expect(tracker.routerChanged("wpan1", .init(borderAgentID: nil, extendedAddress: Self.xa))
            == [.names("wpan1", AdvertisedNames(vendorName: "Wrong", productName: "BR"))])
        #expect(tracker.instances == ["wpan0": "B #1234", "wpan1": "A #0BBF"])
        // The same identity again changes nothing.
        #expect(tracker.routerChanged("wpan0", .init(borderAgentID: Self.id, extendedAddress: Self.xa)) == [])
    }

    @Test func theEphemeralKeyServiceOfAMatchedAgentIsFollowedEvenAfterItsAgentGoes() {
        var table = BorderAgentTable()
        var tracker = AdvertisementTracker()
        let agent = Self.service("B #1234", id: Self.id, xa: nil, vendor: "V")
        _ = table.meshcop(.added(agent))
        _ = tracker.routerChanged("wpan0", .init(borderAgentID: Self.id, extendedAddress: nil))
        #expect(tracker.agentsChanged(table) == [.names("wpan0", AdvertisedNames(vendorName: "V", productName: "BR"))])
        _ = table.ephemeral(.added(Self.ephemeral("B #1234", port: 50000)))
        #expect(tracker.agentsChanged(table) == [.ephemeralKeyServiceAppeared("wpan0")])
        // A new port: the key ended and another started.
        _ = table.ephemeral(.updated(Self.ephemeral("B #1234", port: 50001)))
        #expect(tracker.agentsChanged(table) == [.ephemeralKeyServiceWithdrawn("wpan0"), .ephemeralKeyServiceAppeared("wpan0")])
        // The agent's own service goes (stale): its key service is still followed by instance name.
        _ = table.meshcop(.removed(agent, .unresolvable))
        #expect(tracker.agentsChanged(table) == [])
        _ = table.ephemeral(.removed(Self.ephemeral("B #1234", port: 50001), .withdrawn))
        #expect(tracker.agentsChanged(table) == [.ephemeralKeyServiceWithdrawn("wpan0")])
    }

    @Test func hostileNamesAreMadeDisplayable() {
        #expect(AdvertisementTracker.displayable("Acme\u{0}\u{1B}[2J Labs\n") == "Acme[2J Labs")
        #expect(AdvertisementTracker.displayable("\u{0}\u{7F}") == nil)
        #expect(AdvertisementTracker.displayable(String(repeating: "é", count: 200))?.count == 64)
        #expect(AdvertisementTracker.displayable(nil) == nil)
    }
}
