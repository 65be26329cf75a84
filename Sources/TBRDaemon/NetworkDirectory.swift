import Store
import TBRDBusAPI

/// What `Structure1.Networks` shows, from what the store holds and which routers are on which network;
/// sans I/O, so that stale marking is tested with any "now".
///
/// A network is `stale` when no router of the structure is on it and nothing (a router, mDNS, a fetch)
/// has shown it for `staleAfter` seconds (`network-stale-after`, in days, in tbrd.conf).
enum NetworkDirectory {
    static func rows(
        _ records: [ThreadNetworkRecord], routersOn: [String: [String]], preferred: String?, now: Double, staleAfter: Double
    ) -> [NetworkRow] {
        records.map { r in
            let routers = (routersOn[r.extendedPANID] ?? []).sorted()
            return NetworkRow(
                extPanId: r.extendedPANID, networkName: r.networkName, channel: UInt16(clamping: r.channel ?? 0),
                activeTimestamp: r.activeTimestamp ?? 0, source: r.source.rawValue, sourceDetail: r.sourceDetail,
                lastSeenAt: r.lastSeenAt, routers: routers, credentials: r.dataset != nil,
                preferred: preferred?.lowercased() == r.extendedPANID,
                stale: routers.isEmpty && now - r.lastSeenAt > staleAfter)
        }
    }
}
