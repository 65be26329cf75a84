import BorderRouterService
package import Store
package import TBRDocuments
import TBRFoundation

/// What `Structure1.Networks` shows, from what the store holds and which routers are on which network;
/// sans I/O, so that stale marking is tested with any "now".
///
/// A network is `stale` when no router of the structure is on it and nothing (a router, mDNS, a fetch)
/// has shown it for `staleAfter` seconds (`network-stale-after`, in days, in tbrd.conf).
package enum NetworkDirectory {
    package static func entries(
        structure: String, _ records: [ThreadNetworkRecord], routersOn: [String: [String]], preferred: String?, now: Double, staleAfter: Double
    ) -> [NetworkEntry] {
        records.map { r in
            let routers = (routersOn[r.extendedPANID] ?? []).sorted()
            return NetworkEntry(
                structure: structure, extPanId: r.extendedPANID, networkName: r.networkName, channel: r.channel.flatMap { $0 == 0 ? nil : $0 },
                activeTimestamp: r.activeTimestamp.flatMap { $0 == 0 ? nil : $0 }, source: r.source.rawValue, sourceDetail: r.sourceDetail,
                lastSeen: WallTime(secondsSinceEpoch: r.lastSeenAt), routers: routers, credentials: r.dataset != nil,
                preferred: preferred?.lowercased() == r.extendedPANID,
                stale: routers.isEmpty && now - r.lastSeenAt > staleAfter)
        }
    }
}
