@testable import TBRCoreServices
import Store
import TBRDBusAPI
import TBRDocuments
import Testing

@testable import TBRDaemon

@Suite("Which networks of a directory are preferred and stale")
struct NetworkDirectoryTests {
    static let day = 86_400.0

    static func record(_ xpan: String, lastSeen: Double, dataset: [UInt8]? = nil) -> ThreadNetworkRecord {
        ThreadNetworkRecord(extendedPANID: xpan, networkName: "N", dataset: dataset, source: .mdns, lastSeenAt: lastSeen)
    }

    @Test("stale: no router on it and not seen for network-stale-after, on a manual clock")
    func stale() {
        let records = [
            Self.record("000000000000000a", lastSeen: 0),
            Self.record("000000000000000b", lastSeen: 0, dataset: [1]),
            Self.record("000000000000000c", lastSeen: 20 * Self.day),
        ]
        let routersOn = ["000000000000000b": ["wpan1", "wpan0"]]
        func rows(at now: Double) -> [NetworkEntry] {
            NetworkDirectory.entries(
                structure: "Home", records, routersOn: routersOn, preferred: "000000000000000B", now: now, staleAfter: 30 * Self.day)
        }
        #expect(rows(at: 30 * Self.day).map(\.stale) == [false, false, false], "exactly network-stale-after is not yet stale")
        #expect(rows(at: 30 * Self.day + 1).map(\.stale) == [true, false, false])
        #expect(rows(at: 51 * Self.day).map(\.stale) == [true, false, true])
        let b = rows(at: 0)[1]
        #expect(b.preferred && b.credentials && b.routers == ["wpan0", "wpan1"], "a router on it keeps it fresh; sorted routers")
        #expect(rows(at: 0).filter(\.preferred).count == 1 && !rows(at: 0)[0].credentials)
    }
}
