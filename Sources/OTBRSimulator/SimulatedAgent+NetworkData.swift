import DBus
import OpenThreadBR

/// The partition's Network Data as the agent's getters read it: OpenThread's copy of the leader's Network
/// Data (`otNetDataGet`, `otNetDataGetNextOnMeshPrefix`, `otNetDataGetNextRoute` read
/// `NetworkData::Leader`), which here holds only what this border router registered: the prefixes and
/// routes of `AddOnMeshPrefix`/`AddExternalRoute`, and its routing manager's OMR prefix. Empty unless
/// attached.
extension SimulatedAgent {
    /// The BR ULA prefix of this agent (`RoutingManager::LoadOrGenerateRandomBrUlaPrefix`): `fd` and 40
    /// random bits, kept in the settings (``PersistentState``) and made afresh after an erase.
    func loadOrGenerateBRULAPrefix() -> [UInt8] {
        if let stored = persistent.brULAPrefix { return stored }
        var rng = SystemRandomNumberGenerator()
        let ula = [0xFD] + (0..<5).map { _ in UInt8.random(in: 0...255, using: &rng) }
        persistent.brULAPrefix = ula
        return ula
    }

    /// The local OMR prefix (`OmrPrefixManager`): the BR ULA /48 with subnet ID 1, as a /64, with the
    /// flags and the low preference the routing manager registers a generated prefix with.
    var localOMRPrefix: OnMeshPrefixEntry {
        var entry = OnMeshPrefixEntry(prefix: IPv6Prefix(bytes: runtime.brULAPrefix + [0x00, 0x01], length: 64), preference: -1)
        (entry.stable, entry.slaac, entry.preferred, entry.onMesh) = (true, true, true, true)
        return entry
    }

    /// The favoured OMR prefix (`DetermineFavoredPrefixInNetData`): among valid, preferred OMR prefixes,
    /// the highest preference, then the smallest prefix; the local one competes too. Nil unless attached.
    var favoredOMRPrefix: OnMeshPrefixEntry? {
        guard runtime.role.isAttached else { return nil }
        let candidates = runtime.onMeshPrefixes.filter { $0.isValidOMR && $0.preferred } + [localOMRPrefix]
        return candidates.min { a, b in
            a.preference != b.preference ? a.preference > b.preference : a.prefix < b.prefix
        }
    }

    /// The on-mesh prefixes of the Network Data: those added over D-Bus, then the local OMR prefix while
    /// the routing manager publishes it (attached, the infrastructure link up, and it is the favoured one).
    var networkOnMeshPrefixes: [OnMeshPrefixEntry] {
        guard runtime.role.isAttached else { return [] }
        let omr = localOMRPrefix
        let published = favoredOMRPrefix?.prefix == omr.prefix && !runtime.onMeshPrefixes.contains { $0.prefix == omr.prefix }
        return runtime.onMeshPrefixes + (published ? [omr] : [])
    }

    /// The external routes of the Network Data: those added over D-Bus, while attached.
    var networkExternalRoutes: [ExternalRouteEntry] { runtime.role.isAttached ? runtime.externalRoutes : [] }

    /// The agent's RLOC16: its router's while attached (it is always leader), else 0xfffe.
    var ownRloc16: UInt16 { runtime.role.isAttached ? UInt16(runtime.routerID) << 10 : 0xFFFE }

    /// `NetworkData` (all) or `StableNetworkData` as TLVs.
    func networkDataTLVs(stable: Bool) -> [UInt8] {
        NetworkDataTLVs.encode(onMesh: networkOnMeshPrefixes, routes: networkExternalRoutes, rloc16: ownRloc16, stableOnly: stable)
    }

    /// `OnMeshPrefixes` and `ExternalRoutes`, as arrays of their D-Bus structs.
    func networkDataProperty(onMesh: Bool) -> DBusValue {
        let rloc = ownRloc16
        let type = PropertyTable.type(of: onMesh ? "OnMeshPrefixes" : "ExternalRoutes")
        let element: SignatureType = if case .array(let e) = type { e } else { .string }
        let items =
            onMesh ? networkOnMeshPrefixes.map { $0.dbusValue(rloc16: rloc) } : networkExternalRoutes.map { $0.dbusValue(rloc16: rloc) }
        return .array(element: element, items)
    }

    /// The leader's reaction to a change: the full data version moves when the Network Data changed, the
    /// stable one when its stable subset did. Called after every role change and route method.
    func networkDataMayHaveChanged() {
        guard runtime.role.isAttached else { return }
        let full = networkDataTLVs(stable: false)
        let stable = networkDataTLVs(stable: true)
        if full != runtime.publishedNetworkData { runtime.networkDataVersion &+= 1 }
        if stable != runtime.publishedStableNetworkData { runtime.stableNetworkDataVersion &+= 1 }
        runtime.publishedNetworkData = full
        runtime.publishedStableNetworkData = stable
    }

    /// A new partition (`Leader::Reset` on becoming leader): empty Network Data, random data versions.
    func resetNetworkData() {
        runtime.networkDataVersion = UInt8.random(in: 0...255)
        runtime.stableNetworkDataVersion = UInt8.random(in: 0...255)
        runtime.publishedNetworkData = []
        runtime.publishedStableNetworkData = []
    }

    /// `LeaderData`: this node leads the partition, with leader weight 64.
    var leaderData: LeaderDataValue {
        LeaderDataValue(
            partitionID: runtime.partitionID, weighting: 64, dataVersion: runtime.networkDataVersion,
            stableDataVersion: runtime.stableNetworkDataVersion, leaderRouterID: runtime.routerID)
    }
}

/// The leader data (`otLeaderData`) the agent reports over D-Bus (`LeaderData`) and REST (`leaderData`).
struct LeaderDataValue: Sendable, Equatable {
    var partitionID: UInt32
    var weighting: UInt8
    var dataVersion: UInt8
    var stableDataVersion: UInt8
    var leaderRouterID: UInt8

    /// `(uyyyy)`.
    var dbusValue: DBusValue {
        .structure([.uint32(partitionID), .byte(weighting), .byte(dataVersion), .byte(stableDataVersion), .byte(leaderRouterID)])
    }
}
