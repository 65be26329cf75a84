public import DeviceModel
public import TBRDBusAPI
import TBRFoundation

/// One node of `tbrctl matter nodes`: `{structure, nodeId, vendorId, productId, commissionedAt, name, room}`.
public struct MatterNodeView: Sendable, Hashable, Encodable {
    public var structure: String
    public var nodeId: UInt64
    public var vendorId: UInt16?
    public var productId: UInt16?
    public var commissionedAt: WallTime
    public var name: String?
    public var room: String?

    public init(structure: String, _ row: MatterNodeRow) {
        self.structure = structure
        nodeId = row.nodeId
        vendorId = row.vendorId == 0 ? nil : row.vendorId
        productId = row.productId == 0 ? nil : row.productId
        commissionedAt = WallTime(milliseconds: row.commissionedAt)
        name = row.name.isEmpty ? nil : row.name
        room = row.room.isEmpty ? nil : row.room
    }

    private enum CodingKeys: String, CodingKey { case structure, nodeId, vendorId, productId, commissionedAt, name, room }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(structure, forKey: .structure)
        try c.encode(nodeId, forKey: .nodeId)
        try c.encode(vendorId, forKey: .vendorId)
        try c.encode(productId, forKey: .productId)
        try c.encode(commissionedAt.description, forKey: .commissionedAt)
        try c.encode(name, forKey: .name)
        try c.encode(room, forKey: .room)
    }
}

/// One node of `tbrctl matter nodes --unclaimed`: `{nodeId, vendorId, productId, available, label}`.
public struct UnclaimedNodeView: Sendable, Hashable, Encodable {
    public var nodeId: UInt64
    public var vendorId: UInt16?
    public var productId: UInt16?
    public var available: Bool
    public var label: String?

    public init(_ row: UnclaimedMatterNodeRow) {
        nodeId = row.nodeId
        vendorId = row.vendorId == 0 ? nil : row.vendorId
        productId = row.productId == 0 ? nil : row.productId
        available = row.available
        label = row.label.isEmpty ? nil : row.label
    }

    private enum CodingKeys: String, CodingKey { case nodeId, vendorId, productId, available, label }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(nodeId, forKey: .nodeId)
        try c.encode(vendorId, forKey: .vendorId)
        try c.encode(productId, forKey: .productId)
        try c.encode(available, forKey: .available)
        try c.encode(label, forKey: .label)
    }
}

extension WallTime {
    /// The moment `milliseconds` after the Unix epoch (tbrd's `x` times).
    public init(milliseconds: Int64) { self.init(secondsSinceEpoch: Double(milliseconds) / 1000) }
}
