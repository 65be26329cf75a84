/// A Matter node commissioned into a structure, as the store keeps it (table `matter_nodes`).
public struct MatterNodeRecord: Hashable, Sendable {
    /// The node's operational node ID (64 bits; stored as its bit pattern).
    public var nodeID: UInt64
    /// The structure it was commissioned into.
    public var structure: StructureRecord.ID
    /// Its vendor ID (BasicInformation), 0 when the commissioner did not say.
    public var vendorID: UInt16
    /// Its product ID (BasicInformation), 0 when the commissioner did not say.
    public var productID: UInt16
    /// When it was commissioned (seconds since the Unix epoch).
    public var commissionedAt: Double
    /// The commissioning session it came from; nil for a node adopted (commissioned by another controller
    /// on the shared commissioner and recorded at a person's request).
    public var sessionID: String?
    /// Its payload's id within that session; nil for an adopted node.
    public var payloadID: String?
    /// The Thread network it was given (extended PAN ID in hex), nil when it was already on a network.
    public var extPanID: String?
    /// The commissioner backend that commissioned it (`matter-server`).
    public var backend: String
    /// The name people call it by (in NFC), nil when it has none.
    public var name: String?
    /// The room of its structure it is placed in, nil when none.
    public var room: String?

    /// A record with these values.
    public init(
        nodeID: UInt64, structure: StructureRecord.ID, vendorID: UInt16, productID: UInt16, commissionedAt: Double,
        sessionID: String?, payloadID: String?, extPanID: String?, backend: String, name: String? = nil, room: String? = nil
    ) {
        self.nodeID = nodeID
        self.structure = structure
        self.vendorID = vendorID
        self.productID = productID
        self.commissionedAt = commissionedAt
        self.sessionID = sessionID
        self.payloadID = payloadID
        self.extPanID = extPanID
        self.backend = backend
        self.name = name
        self.room = room
    }

    /// The longest node name, in UTF-8 bytes: Basic Information's NodeLabel, where the name is written
    /// too, holds at most 32.
    public static let maximumNameLength = 32
}
