public import TBRFoundation
public import DeviceModel
public import MatterOnboarding
public import MeshCoP

/// Identifies a Matter commissioning session: 16 random hex digits, unique while tbrd runs.
public struct CommissioningSessionID: RawRepresentable, Hashable, Comparable, Sendable, Codable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    /// The id as text.
    public let rawValue: String

    /// The id `rawValue`.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// An id from a literal.
    public init(stringLiteral value: String) { rawValue = value }

    /// A fresh random id (from the system's CSPRNG).
    public static func random() -> CommissioningSessionID {
        var generator = SystemRandomNumberGenerator()
        let value = UInt64.random(in: 0...UInt64.max, using: &generator)
        let hex = String(value, radix: 16)
        return CommissioningSessionID(rawValue: String(repeating: "0", count: 16 - hex.count) + hex)
    }

    public var description: String { rawValue }
    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
}

/// How to commission one payload (the `a{sv}` options of `Commission`).
public struct CommissioningOptions: Hashable, Sendable {
    /// The Thread network to give the device, by extended PAN ID; nil: the structure's default, else its
    /// only network.
    public var network: ExtendedPANID?
    /// The device is already on the network: no credentials are handed over, it is found by mDNS.
    public var onNetwork: Bool
    /// The name to give the node: recorded, and written to its Basic Information NodeLabel.
    public var name: String?
    /// The room of the structure to place the node in.
    public var room: String?

    /// Options as given.
    public init(network: ExtendedPANID? = nil, onNetwork: Bool = false, name: String? = nil, room: String? = nil) {
        self.network = network
        self.onNetwork = onNetwork
        self.name = name
        self.room = room
    }
}

/// A session just opened: its id and when it ends by itself.
public struct CommissioningGrant: Hashable, Sendable {
    /// The session.
    public var session: CommissioningSessionID
    /// When it expires, on the wall clock.
    public var expiresAt: WallTime
}

/// One payload reaching a stage (the `CommissioningProgress` signal), with the time it happened.
public struct CommissioningProgress: Hashable, Sendable {
    /// The session.
    public var session: CommissioningSessionID
    /// The structure the session commissions into.
    public var structure: StructureID
    /// The payload's id within its session (`1`, `2`, … in the order they were queued).
    public var payloadID: String
    /// The stage reached.
    public var stage: CommissioningStage
    /// When, on the wall clock.
    public var time: WallTime
    /// The node ID (from `nodeAdded` on).
    public var nodeID: NodeID?
    /// The vendor ID (from `interviewed` on, when the commissioner read it).
    public var vendorID: UInt16?
    /// The product ID (from `interviewed` on, when the commissioner read it).
    public var productID: UInt16?
    /// The Thread network given to the device (from `networkSelected` on).
    public var extPanID: ExtendedPANID?
    /// What went wrong, in words (`failed` only).
    public var error: String?
    /// The stage that failed (`failed` only).
    public var failedStage: CommissioningStage?
    /// The node's name (`complete` only, when one was given).
    public var name: String?
    /// The node's room (`complete` only, when one was given).
    public var room: String?
    /// What did not work although the node is complete (`complete` only): the device refused its name.
    public var warning: String?

    /// A progress event as given.
    public init(
        session: CommissioningSessionID, structure: StructureID, payloadID: String, stage: CommissioningStage, time: WallTime,
        nodeID: NodeID? = nil, vendorID: UInt16? = nil, productID: UInt16? = nil, extPanID: ExtendedPANID? = nil, error: String? = nil,
        failedStage: CommissioningStage? = nil, name: String? = nil, room: String? = nil, warning: String? = nil
    ) {
        self.session = session
        self.structure = structure
        self.payloadID = payloadID
        self.stage = stage
        self.time = time
        self.nodeID = nodeID
        self.vendorID = vendorID
        self.productID = productID
        self.extPanID = extPanID
        self.error = error
        self.failedStage = failedStage
        self.name = name
        self.room = room
        self.warning = warning
    }
}

/// How one payload of a session ended (a row of `CompleteMatterCommissioning`).
public struct CommissioningOutcome: Hashable, Sendable {
    /// The payload's id.
    public var payloadID: String
    /// Its node, when it was commissioned.
    public var nodeID: NodeID?
    /// What went wrong, when it failed.
    public var error: String?
    /// The stage that failed, when it failed.
    public var failedStage: CommissioningStage?

    /// Whether it was commissioned.
    public var isComplete: Bool { nodeID != nil && error == nil }

    /// An outcome as given.
    public init(payloadID: String, nodeID: NodeID? = nil, error: String? = nil, failedStage: CommissioningStage? = nil) {
        self.payloadID = payloadID
        self.nodeID = nodeID
        self.error = error
        self.failedStage = failedStage
    }
}

/// What the commissioning sessions need to know about a structure's border routers, read when needed.
public struct CommissioningStructureView: Hashable, Sendable {
    /// One border router of the structure.
    public struct Router: Hashable, Sendable {
        /// Its id.
        public var id: DeviceID
        /// Its otbr-agent is on the bus.
        public var isOnline: Bool
        /// It is attached to its Thread network (child, router or leader).
        public var isAttached: Bool
        /// The network of its active dataset (the last one read while it is offline); nil without one.
        public var network: ExtendedPANID?

        /// A router as given.
        public init(id: DeviceID, isOnline: Bool, isAttached: Bool, network: ExtendedPANID?) {
            self.id = id
            self.isOnline = isOnline
            self.isAttached = isAttached
            self.network = network
        }
    }

    /// The structure.
    public var structure: StructureID
    /// Its name, for messages.
    public var name: String
    /// Its border routers, sorted by id.
    public var routers: [Router]
    /// Its `DefaultThreadNetworkId`.
    public var defaultNetwork: ExtendedPANID?
    /// Its rooms.
    public var rooms: [String]

    /// A view as given.
    public init(structure: StructureID, name: String, routers: [Router], defaultNetwork: ExtendedPANID?, rooms: [String] = []) {
        self.structure = structure
        self.name = name
        self.routers = routers
        self.defaultNetwork = defaultNetwork
        self.rooms = rooms
    }

    /// The networks of its routers, sorted.
    public var networks: [ExtendedPANID] { Set(routers.compactMap(\.network)).sorted { $0.description < $1.description } }
}
