/// Thread Network Data TLVs (Thread 1.4 §5.18; OpenThread's `network_data_tlvs.hpp`) for the entries one
/// border router registered: one Prefix TLV per prefix, holding a Has Route sub-TLV for its external
/// routes, a Border Router sub-TLV for its on-mesh prefix and the Context sub-TLV the leader allocates.
/// Stable and temporary entries go in separate sub-TLVs; a TLV is stable when it holds stable data.
enum NetworkDataTLVs {
    /// TLV types (the type byte carries the type in its upper 7 bits and the stable flag in bit 0).
    private enum TLVType: UInt8 {
        case hasRoute = 0, prefix = 1, borderRouter = 2, context = 3
    }

    /// The TLVs of `onMesh` and `routes`, all registered by `rloc16`. With `stableOnly` it is the stable
    /// subset (`MutableNetworkData::RemoveTemporaryData`): temporary sub-TLVs go, and the RLOC16 of every
    /// remaining entry becomes 0xfffe (0xfc00 | context ID for DHCP or configure prefixes).
    static func encode(onMesh: [OnMeshPrefixEntry], routes: [ExternalRouteEntry], rloc16: UInt16, stableOnly: Bool) -> [UInt8] {
        var prefixes: [IPv6Prefix] = []
        for prefix in onMesh.map(\.prefix) + routes.map(\.prefix) where !prefixes.contains(prefix) { prefixes.append(prefix) }
        var contextID: UInt8 = 0
        var out: [UInt8] = []
        for prefix in prefixes {
            let brEntries = onMesh.filter { $0.prefix == prefix }
            let routeEntries = routes.filter { $0.prefix == prefix }
            var context: UInt8?
            if !brEntries.isEmpty {
                contextID += 1
                context = contextID
            }
            var subTLVs: [UInt8] = []
            var stableSeen = false
            for stable in [true, false] where !(stableOnly && !stable) {
                let entries = routeEntries.filter { $0.stable == stable }
                guard !entries.isEmpty else { continue }
                stableSeen = stableSeen || stable
                let rloc = stableOnly ? 0xFFFE : rloc16
                subTLVs += tlv(.hasRoute, stable: stable, entries.flatMap { be16(rloc) + [routeFlags($0)] })
            }
            for stable in [true, false] where !(stableOnly && !stable) {
                let entries = brEntries.filter { $0.stable == stable }
                guard !entries.isEmpty else { continue }
                stableSeen = stableSeen || stable
                subTLVs += tlv(
                    .borderRouter, stable: stable,
                    entries.flatMap { entry in
                        let dhcpAgent = entry.dhcp || entry.configure
                        let rloc = stableOnly ? (dhcpAgent ? 0xFC00 | UInt16(context ?? 0) : 0xFFFE) : rloc16
                        return be16(rloc) + be16(borderRouterFlags(entry))
                    })
            }
            if let context {
                let stable = brEntries.contains(where: \.stable)
                if stable || !stableOnly { subTLVs += tlv(.context, stable: stable, [0x10 | context, prefix.length]) }
            }
            guard !subTLVs.isEmpty else { continue }
            out += tlv(.prefix, stable: stableSeen, [0, prefix.length] + prefix.significantBytes + subTLVs)
        }
        return out
    }

    private static func tlv(_ type: TLVType, stable: Bool, _ value: [UInt8]) -> [UInt8] {
        [type.rawValue << 1 | (stable ? 1 : 0), UInt8(truncatingIfNeeded: value.count)] + value
    }

    private static func be16(_ v: UInt16) -> [UInt8] { [UInt8(v >> 8), UInt8(v & 0xFF)] }

    /// The 2-bit RFC 4191 preference field: 01 high, 00 medium, 11 low.
    private static func preferenceBits(_ preference: Int8) -> UInt16 { UInt16(UInt8(bitPattern: preference) & 0x03) }

    /// Border Router entry flags: preference (bits 15–14), P, S, D, C, R, O, N, DP (bits 13–6).
    static func borderRouterFlags(_ e: OnMeshPrefixEntry) -> UInt16 {
        let bits: [(Bool, UInt16)] = [
            (e.preferred, 13), (e.slaac, 12), (e.dhcp, 11), (e.configure, 10), (e.defaultRoute, 9), (e.onMesh, 8),
            (e.ndDns, 7), (e.dp, 6),
        ]
        return bits.reduce(preferenceBits(e.preference) << 14) { $1.0 ? $0 | 1 << $1.1 : $0 }
    }

    /// Has Route entry flags: preference in bits 7–6 (NAT64 and advertising-PIO bits clear).
    static func routeFlags(_ e: ExternalRouteEntry) -> UInt8 { UInt8(preferenceBits(e.preference) << 6) }
}
