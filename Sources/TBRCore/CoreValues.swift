public import MatterOnboarding
public import TBRDocuments

/// Who made a request of the HTTPS API: its token's name and scope.
public struct APIPrincipal: Sendable, Hashable {
    public var tokenName: String
    public var scope: APIScope

    public init(tokenName: String, scope: APIScope) {
        self.tokenName = tokenName
        self.scope = scope
    }
}

/// Devices to commission into a structure, as a caller gives them; the core checks every field.
public struct CommissioningOrder: Sendable, Hashable {
    /// QR codes (`MT:…`) or manual pairing codes, 1 to 32.
    public var codes: [String]
    /// The Thread network's extended PAN ID (16 hex digits); nil: the structure's default.
    public var network: String?
    /// Whether the devices are already on the IP network (no BLE).
    public var onNetwork: Bool
    /// The node's name (one code only) and room.
    public var name: String?
    public var room: String?

    public init(codes: [String], network: String? = nil, onNetwork: Bool = false, name: String? = nil, room: String? = nil) {
        self.codes = codes
        self.network = network
        self.onNetwork = onNetwork
        self.name = name
        self.room = room
    }
}

/// A commissioning the core started: the session and each code's payload id, whose stages follow as
/// ``CoreEvent/commissioning(_:)``.
public struct CommissioningStarted: Encodable, Sendable, Hashable {
    public struct Payload: Encodable, Sendable, Hashable {
        /// The code's position in the order, from 1 (`tbrctl matter commission`'s `payload`).
        public var payload: Int
        public var payloadId: String

        public init(payload: Int, payloadId: String) {
            self.payload = payload
            self.payloadId = payloadId
        }
    }
    public var structure: String
    public var session: String
    public var payloads: [Payload]

    public init(structure: String, session: String, payloads: [Payload]) {
        self.structure = structure
        self.session = session
        self.payloads = payloads
    }
}

/// Something that happened, as the core tells every adapter.
public enum CoreEvent: Sendable {
    /// An ePSKc started or ended (already journalled: its sequence is set).
    case epskc(EpskcWatchEvent)
    /// A router came online or went offline.
    case router(id: String, online: Bool)
    /// The routers' internet-access statuses of a structure changed.
    case policy(PolicyView)
    /// A Matter device reached a commissioning stage.
    case commissioning(CommissioningReport)
    /// Recovery found a router of a structure empty or on another network, or joined it back.
    case recovery(RecoveryReport)
    /// The health monitor opened or closed a problem.
    case problem(ProblemChange)
    /// Something of router `id` changed: it was added or removed, came or went, or what tbrd reads of it
    /// (role, network, channel, partition, router and child counts) is different. Read it again
    /// (``RouterCore/routerInfo(_:)``, ``HealthCore/reading(of:)``); a removed router answers `notFound`.
    case routerChanged(id: String)
    /// A structure was created or deleted, or its routers or settings changed: read them again
    /// (``StructureCore/structureViews()``).
    case structuresChanged
}

/// A commissioning stage as the core reports it: `{structure, session, payloadId, stage, time, nodeId,
/// error, failedStage, name, room, warning}`, nil for what the stage does not have (`tbrctl --json
/// matter commission`'s names).
public struct CommissioningReport: Sendable, Hashable, Encodable {
    public var structure: String, session: String, payloadId: String, stage: CommissioningStage, time: String
    public var nodeId: UInt64?, error: String?, failedStage: CommissioningStage?, name: String?, room: String?, warning: String?

    public init(
        structure: String, session: String, payloadId: String, stage: CommissioningStage, time: String, nodeId: UInt64?, error: String?,
        failedStage: CommissioningStage?, name: String?, room: String?, warning: String?
    ) {
        self.structure = structure
        self.session = session
        self.payloadId = payloadId
        self.stage = stage
        self.time = time
        self.nodeId = nodeId
        self.error = error
        self.failedStage = failedStage
        self.name = name
        self.room = room
        self.warning = warning
    }

    /// Every member, null ones too.
    public func encode(to encoder: any Encoder) throws {
        enum Keys: String, CodingKey { case structure, session, payloadId, stage, time, nodeId, error, failedStage, name, room, warning }
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(structure, forKey: .structure)
        try c.encode(session, forKey: .session)
        try c.encode(payloadId, forKey: .payloadId)
        try c.encode(stage, forKey: .stage)
        try c.encode(time, forKey: .time)
        try c.encode(nodeId, forKey: .nodeId)
        try c.encode(error, forKey: .error)
        try c.encode(failedStage, forKey: .failedStage)
        try c.encode(name, forKey: .name)
        try c.encode(room, forKey: .room)
        try c.encode(warning, forKey: .warning)
    }
}
