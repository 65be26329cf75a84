@testable import MDNS
import Testing

/// The browse table: Avahi's browser and resolver events in, added/updated/removed out.
@Suite struct ServiceTableTests {
    typealias Sighting = ServiceTable.Sighting
    typealias Resolution = ServiceTable.Resolution

    let key = ServiceKey(name: "OpenThread BorderRouter #0BBF", type: .meshcop)
    var v4: Sighting { Sighting(key: key, interface: 2, ipProtocol: 0) }
    var v6: Sighting { Sighting(key: key, interface: 2, ipProtocol: 1) }

    func resolution(_ address: String, port: UInt16 = 49152, txt: [UInt8] = [4, 0x72, 0x76, 0x3D, 0x31]) -> Resolution {
        Resolution(hostName: "otbr.local", address: address, port: port, txt: txt, isLocal: false)
    }

    func emitted(_ directives: [ServiceTable.Directive]) -> [ServiceEvent] {
        directives.compactMap { if case .emit(let e) = $0 { e } else { nil } }
    }

    @Test func aServiceIsAddedWhenItFirstResolvesAndMergesItsSightings() throws {
        var t = ServiceTable(type: .meshcop)
        #expect(t.found(v4) == [.resolve(v4)])
        #expect(t.found(v4) == [])  // once
        #expect(t.found(v6) == [.resolve(v6)])
        let added = emitted(t.resolved(v4, resolution("192.0.2.1")))
        guard case .added(let s)? = added.first else { Issue.record("not added: \(added)"); return }
        #expect(s.addresses == ["192.0.2.1"] && s.port == 49152 && s.hostName == "otbr.local" && s.interfaces == [2])
        let updated = emitted(t.resolved(v6, resolution("fe80::1%eth0")))
        #expect(updated == [.updated(DiscoveredService(
            name: key.name, type: .meshcop, hostName: "otbr.local", addresses: ["192.0.2.1", "fe80::1%eth0"], port: 49152,
            txt: [4, 0x72, 0x76, 0x3D, 0x31], interfaces: [2]))])
        // The same again changes nothing; a new TXT (the latest resolution wins) is an update.
        #expect(emitted(t.resolved(v6, resolution("fe80::1%eth0"))) == [])
        let txt = emitted(t.resolved(v4, resolution("192.0.2.1", txt: [0])))
        #expect(txt.count == 1 && txt.first?.service?.txt == [0])
        #expect(t.services.count == 1)
    }

    @Test func theLastSightingWithdrawnRemovesTheService() {
        var t = ServiceTable(type: .meshcop)
        _ = t.found(v4)
        _ = t.found(v6)
        _ = t.resolved(v4, resolution("192.0.2.1"))
        #expect(t.removed(v4).first == .stopResolving(v4))
        #expect(emitted(t.removed(v6)).count == 1)
        #expect(t.services.isEmpty)
        // Never resolved: never reported, nothing to remove.
        _ = t.found(v4)
        #expect(emitted(t.removed(v4)) == [])
        #expect(t.removed(v4) == [])
    }

    @Test func aServiceThatNoLongerResolvesIsReportedGoneAndComesBackWhenItDoes() throws {
        var t = ServiceTable(type: .meshcop)
        _ = t.found(v4)
        _ = t.resolved(v4, resolution("192.0.2.1"))
        let gone = emitted(t.resolveFailed(v4))
        guard case .removed(_, .unresolvable)? = gone.first else { Issue.record("not removed: \(gone)"); return }
        #expect(t.services.isEmpty)
        // Avahi's resolver keeps looking: found again, the service is added again.
        guard case .added? = emitted(t.resolved(v4, resolution("192.0.2.1"))).first else { Issue.record("not added again"); return }
        // One sighting failing while another still resolves only updates the addresses.
        _ = t.found(v6)
        _ = t.resolved(v6, resolution("fe80::1%eth0"))
        let fewer = emitted(t.resolveFailed(v4))
        #expect(fewer.first?.service?.addresses == ["fe80::1%eth0"])
        if case .updated? = fewer.first {} else { Issue.record("not an update: \(fewer)") }
    }

    @Test func aDaemonRestartKeepsWhatIsFoundAgainAndRemovesTheRest() {
        var t = ServiceTable(type: .meshcop)
        let other = Sighting(key: ServiceKey(name: "Other #0001", type: .meshcop), interface: 2, ipProtocol: 0)
        _ = t.found(v4)
        _ = t.resolved(v4, resolution("192.0.2.1"))
        _ = t.found(other)
        _ = t.resolved(other, resolution("192.0.2.9"))
        t.daemonLost()
        #expect(t.services.count == 2)  // still reported
        // Back: the first is found again, unchanged: no event.
        #expect(t.found(v4) == [.resolve(v4)])
        #expect(emitted(t.resolved(v4, resolution("192.0.2.1"))) == [])
        // "All for now": the other one was not found again.
        let removed = emitted(t.allForNow())
        #expect(removed.count == 1)
        guard case .removed(let s, .notFoundAfterRestart)? = removed.first else { Issue.record("\(removed)"); return }
        #expect(s.name == "Other #0001")
        #expect(t.services.map(\.name) == [key.name])
        // A later "all for now" changes nothing.
        #expect(t.allForNow() == [])
    }

    @Test func aServiceFoundAgainAfterARestartAndThenWithdrawnIsRemovedAtOnce() {
        var t = ServiceTable(type: .meshcop)
        _ = t.found(v4)
        _ = t.resolved(v4, resolution("192.0.2.1"))
        t.daemonLost()
        _ = t.found(v4)
        _ = t.resolved(v4, resolution("192.0.2.1"))
        // Withdrawn before the reconciliation: gone now, as withdrawn, not later as not found again.
        let removed = emitted(t.removed(v4))
        guard case .removed(_, .withdrawn)? = removed.first else { Issue.record("\(removed)"); return }
        #expect(t.allForNow() == [])
    }

    @Test func eventsForUnknownSightingsAreIgnored() {
        var t = ServiceTable(type: .meshcop)
        #expect(t.resolved(v4, resolution("192.0.2.1")) == [])
        #expect(t.resolveFailed(v4) == [])
        #expect(t.removed(v4) == [])
    }
}
