public import DeviceModel
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

    /// A node as given.
    public init(
        structure: String, nodeId: UInt64, vendorId: UInt16?, productId: UInt16?, commissionedAt: WallTime, name: String?, room: String?
    ) {
        self.structure = structure
        self.nodeId = nodeId
        self.vendorId = vendorId
        self.productId = productId
        self.commissionedAt = commissionedAt
        self.name = name
        self.room = room
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

    /// A node as given.
    public init(nodeId: UInt64, vendorId: UInt16?, productId: UInt16?, available: Bool, label: String?) {
        self.nodeId = nodeId
        self.vendorId = vendorId
        self.productId = productId
        self.available = available
        self.label = label
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

    /// This moment in milliseconds after the Unix epoch, rounded (tbrd's `x` times).
    public var milliseconds: Int64 { Int64((secondsSinceEpoch * 1000).rounded()) }
}
