import TBRFoundation
public import DeviceModel
public import MatterOnboarding
public import MeshCoP

/// A Matter node of a structure, as it is recorded (never with its passcode or payload): one tbrd
/// commissioned, or one another controller commissioned on the shared commissioner that a person adopted.
public struct RecordedMatterNode: Hashable, Sendable {
    /// Its node ID.
    public var nodeID: NodeID
    /// The structure it belongs to.
    public var structure: StructureID
    /// Its vendor ID, 0 when the commissioner did not read it.
    public var vendorID: UInt16
    /// Its product ID, 0 when the commissioner did not read it.
    public var productID: UInt16
    /// When it was commissioned (for an adopted node: when it was adopted).
    public var commissionedAt: WallTime
    /// The session it came from; nil for an adopted node.
    public var session: CommissioningSessionID?
    /// Its payload's id in that session; nil for an adopted node.
    public var payloadID: String?
    /// The Thread network it was given; nil when it was already on a network, or adopted.
    public var extPanID: ExtendedPANID?
    /// The commissioner backend (`matter-server`).
    public var backend: String
    /// The name people call it by, nil when it has none.
    public var name: String?
    /// The room of its structure it is placed in, nil when none.
    public var room: String?

    /// A node as given.
    public init(
        nodeID: NodeID, structure: StructureID, vendorID: UInt16, productID: UInt16, commissionedAt: WallTime,
        session: CommissioningSessionID?, payloadID: String?, extPanID: ExtendedPANID?, backend: String, name: String? = nil,
        room: String? = nil
    ) {
        self.nodeID = nodeID
        self.structure = structure
        self.vendorID = vendorID
        self.productID = productID
        self.commissionedAt = commissionedAt
        self.session = session
        self.payloadID = payloadID
        self.extPanID = extPanID
        self.backend = backend
        self.name = name
        self.room = room
    }

    /// The longest name, in UTF-8 bytes: the name is written to the device's Basic Information NodeLabel,
    /// which holds at most 32.
    public static let maximumNameLength = 32

    /// Why `name` cannot name a node (the structure-name rules, at most ``maximumNameLength`` bytes), or nil.
    public static func problem(withName name: String) -> String? {
        NameRules.problem(with: name, maximumBytes: maximumNameLength).map { "\(Quoted(name)) cannot name a Matter node: \($0)" }
    }
}

/// Where the Matter nodes of each structure are recorded, with the rooms they are placed in. tbrd keeps
/// them in its SQLite store (they survive restarts); a service made without one keeps them in memory.
/// Names (of nodes and rooms) are kept in Unicode NFC and follow ``TBRFoundation/NameRules``.
public protocol MatterNodeStore: Sendable {
    /// Records `node` (replacing an earlier node of the same ID).
    /// - Throws: ``DeviceModel/HomeError`` `notFound` when its structure is gone; `invalidArgument` for a
    ///   name that breaks the rules or a room its structure lacks; `failed` when it cannot be stored.
    func record(_ node: RecordedMatterNode) async throws(HomeError)

    /// Records node `node`, commissioned by another controller, in `structure`, as adopted now.
    /// - Throws: ``DeviceModel/HomeError`` `invalidState` when a structure already holds it, naming it;
    ///   `notFound` for an unknown structure.
    func adopt(_ node: CommissionedNodeSummary, into structure: StructureID, backend: String) async throws(HomeError) -> RecordedMatterNode

    /// Gives node `node` of `structure` the name `name` (nil: none).
    /// - Throws: ``DeviceModel/HomeError`` `notFound` for a node the structure does not hold;
    ///   `invalidArgument` for a name that breaks the rules.
    func name(_ node: NodeID, in structure: StructureID, _ name: String?) async throws(HomeError) -> RecordedMatterNode

    /// Places node `node` of `structure` in `room` (nil: none).
    /// - Throws: ``DeviceModel/HomeError`` `notFound` for a node the structure does not hold;
    ///   `invalidArgument` for a room the structure lacks.
    func place(_ node: NodeID, in structure: StructureID, room: String?) async throws(HomeError) -> RecordedMatterNode

    /// Forgets node `node` (it left the fabric); harmless when it is not recorded.
    /// - Throws: ``DeviceModel/HomeError`` `failed` when it cannot be stored.
    func forget(_ node: NodeID) async throws(HomeError)

    /// The nodes of `structure`, by node ID.
    /// - Throws: ``DeviceModel/HomeError`` `notFound`.
    func nodes(in structure: StructureID) async throws(HomeError) -> [RecordedMatterNode]

    /// Every recorded node, by node ID.
    /// - Throws: ``DeviceModel/HomeError``.
    func allNodes() async throws(HomeError) -> [RecordedMatterNode]

    /// The rooms of `structure`, by name.
    /// - Throws: ``DeviceModel/HomeError`` `notFound`.
    func rooms(in structure: StructureID) async throws(HomeError) -> [String]

    /// Adds room `room` to `structure` and returns its rooms.
    /// - Throws: ``DeviceModel/HomeError`` `invalidArgument` for a name that breaks the rules or is taken;
    ///   `notFound`.
    func addRoom(_ room: String, to structure: StructureID) async throws(HomeError) -> [String]

    /// Removes room `room` from `structure` and returns its rooms.
    /// - Throws: ``DeviceModel/HomeError`` `invalidState` naming the nodes placed in it;
    ///   `invalidArgument` for a room the structure lacks; `notFound`.
    func removeRoom(_ room: String, from structure: StructureID) async throws(HomeError) -> [String]
}

/// What the commissioner says of a node someone adopts: its ID and, when read, its vendor, product and label.
public struct CommissionedNodeSummary: Hashable, Sendable {
    /// Its node ID.
    public var nodeID: NodeID
    /// Its vendor ID (0 when unknown).
    public var vendorID: UInt16
    /// Its product ID (0 when unknown).
    public var productID: UInt16
    /// Its NodeLabel when the device has one, taken as its name.
    public var label: String?

    /// A summary as given.
    public init(nodeID: NodeID, vendorID: UInt16, productID: UInt16, label: String?) {
        self.nodeID = nodeID
        self.vendorID = vendorID
        self.productID = productID
        self.label = label
    }
}
