public import DBus
public import TBRDocuments
import DeviceModel

// The contract's rows as the shared documents (TBRDocuments), for every client of the D-Bus API
// (tbrctl) and for tbrd's domain operations that still return rows: the documents know nothing of D-Bus;
// the flattening of D-Bus ("" and 0 for none) is undone here, once.

extension DoctorCheck {
    /// A check of `Diagnose`'s reply.
    /// - Throws: ``DBus/DBusValueError/invalid(_:)`` for a status that is not pass, warn, fail or unsupported.
    public init(_ row: DiagnosticRow) throws(DBusValueError) {
        guard let status = Status(rawValue: row.status) else {
            throw .invalid("a check's status \"\(row.status.prefix(40))\" is not pass, warn, fail or unsupported")
        }
        self.init(id: row.id, status: status, message: row.message, fix: row.fix)
    }
}

extension MatterNodeView {
    /// A node of structure `structure`'s `MatterNodes`.
    public init(structure: String, _ row: MatterNodeRow) {
        self.init(
            structure: structure, nodeId: row.nodeId, vendorId: row.vendorId == 0 ? nil : row.vendorId,
            productId: row.productId == 0 ? nil : row.productId, commissionedAt: WallTime(milliseconds: row.commissionedAt),
            name: row.name.isEmpty ? nil : row.name, room: row.room.isEmpty ? nil : row.room)
    }
}

extension UnclaimedNodeView {
    /// A node of `UnclaimedMatterNodes`.
    public init(_ row: UnclaimedMatterNodeRow) {
        self.init(
            nodeId: row.nodeId, vendorId: row.vendorId == 0 ? nil : row.vendorId, productId: row.productId == 0 ? nil : row.productId,
            available: row.available, label: row.label.isEmpty ? nil : row.label)
    }
}

extension NetworkEntry {
    /// A network of structure `structure`'s directory.
    public init(structure: String, _ row: NetworkRow) {
        self.init(
            structure: structure, extPanId: row.extPanId, networkName: row.networkName, channel: row.channel == 0 ? nil : Int(row.channel),
            activeTimestamp: row.activeTimestamp == 0 ? nil : row.activeTimestamp, source: row.source, sourceDetail: row.sourceDetail,
            lastSeen: WallTime(secondsSinceEpoch: row.lastSeenAt), routers: row.routers, credentials: row.credentials,
            preferred: row.preferred, stale: row.stale)
    }
}

extension NetworkRow {
    /// `Structure1.Networks`' row of `entry` (D-Bus's 0 for an unknown channel or timestamp).
    public init(_ entry: NetworkEntry) {
        self.init(
            extPanId: entry.extPanId, networkName: entry.networkName, channel: UInt16(clamping: entry.channel ?? 0),
            activeTimestamp: entry.activeTimestamp ?? 0, source: entry.source, sourceDetail: entry.sourceDetail,
            lastSeenAt: entry.lastSeen.secondsSinceEpoch, routers: entry.routers, credentials: entry.credentials,
            preferred: entry.preferred, stale: entry.stale)
    }
}
