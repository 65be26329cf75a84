import BorderRouterService
import TBRFoundation
import DBus
import OpenThreadBR
import TBRDBusAPI

extension DBusAdapter {
    /// `EnergyScan`'s answer: each reading as `(y channel, n max_rssi)`.
    nonisolated static func energyScanValue(_ results: [EnergyScanResult]) -> DBusValue {
        .array(element: .structure([.byte, .int16]), results.map { .structure([.byte($0.channel), .int16(Int16($0.maxRSSI))]) })
    }
}

extension MeshTopologyReply {
    /// The contract's form of `topology` (-1 and empty strings for what is unknown).
    init(_ topology: MeshTopology) {
        self.init(
            partitionId: topology.partitionID.map(Int64.init) ?? -1, leaderRouterId: topology.leaderRouterID.map(Int32.init) ?? -1,
            onMeshPrefixes: topology.onMeshPrefixes.map(MeshPrefixRow.init),
            externalRoutes: topology.externalRoutes.map {
                MeshRouteRow(prefix: $0.prefix.description, rloc16: $0.rloc16, preference: $0.preference.rawValue, stable: $0.stable)
            },
            nodes: topology.nodes.map(MeshNodeRow.init), horizon: topology.horizon ?? "")
    }
}

extension MeshPrefixRow {
    init(_ p: OnMeshPrefix) {
        self.init(prefix: p.prefix.description, rloc16: p.rloc16, preference: p.preference.rawValue, omr: p.isOMR, flags: p.flagNames)
    }
}

extension MeshNodeRow {
    init(_ n: MeshNode) {
        self.init(
            extAddress: n.extAddress.description, rloc16: n.rloc16, role: n.role.rawValue, source: n.source.rawValue,
            linkQualityIn: n.linkQualityIn.map(Int32.init) ?? -1, linkQualityOut: n.linkQualityOut.map(Int32.init) ?? -1,
            age: n.age.map(Int64.init) ?? -1, modeKnown: n.mode != nil, rxOnWhenIdle: n.mode?.rxOnWhenIdle ?? false,
            fullThreadDevice: n.mode?.fullThreadDevice ?? false, timeout: n.timeout.map(Int64.init) ?? -1,
            parent: n.parent?.description ?? "",
            links: n.links.map {
                MeshLinkRow(
                    rloc16: $0.rloc16, linkQualityIn: $0.linkQualityIn.map(Int32.init) ?? -1,
                    linkQualityOut: $0.linkQualityOut.map(Int32.init) ?? -1)
            })
    }
}
