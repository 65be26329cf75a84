// What a tbrd backup holds, before it is sealed (BackupFile): everything needed to rebuild the home's
// Thread side on another host, as JSON. Names and spellings are those of tbrctl --json; every byte string
// is lowercase hex. docs/operations.md, "Backups and recovery", lists each member.

/// The contents of a backup.
package struct BackupContents: Codable, Sendable, Hashable {
    /// The version of this layout (``currentSchema``); a newer one is refused, never half read.
    package var schema: Int
    /// When it was made (RFC 3339, UTC), on which host, by which tbrd.
    package var createdAt: String
    package var host: String
    package var tbrdVersion: String
    package var structures: [Structure]
    /// Every router tbrd knows: those on this host by interface, those on other hosts by REST URL.
    package var routers: [Router]
    /// The HTTPS API's tokens, as tbrd keeps them: hashed.
    package var tokens: [Token]

    /// The layout this tbrd writes and reads.
    package static let currentSchema = 1

    package init(createdAt: String, host: String, tbrdVersion: String, structures: [Structure], routers: [Router], tokens: [Token]) {
        self.schema = Self.currentSchema
        self.createdAt = createdAt
        self.host = host
        self.tbrdVersion = tbrdVersion
        self.structures = structures
        self.routers = routers
        self.tokens = tokens
    }

    /// A structure with its settings, routers, rooms, network directory and Matter nodes.
    package struct Structure: Codable, Sendable, Hashable {
        package var id: Int64
        package var name: String
        package var createdAt: Double
        /// `ThreadNetworkSettings.internetAccessOption` (nil: never set) and the preferred network.
        package var internetAccessOption: String?
        package var preferredNetwork: String?
        package var settingsUpdatedAt: Double?
        /// `off`, `ask` or `auto`.
        package var recovery: String
        /// Its routers, by id.
        package var routers: [String]
        package var rooms: [String]
        package var networks: [Network]
        package var matterNodes: [MatterNode]

        package init(
            id: Int64, name: String, createdAt: Double, internetAccessOption: String?, preferredNetwork: String?, settingsUpdatedAt: Double?,
            recovery: String, routers: [String], rooms: [String], networks: [Network], matterNodes: [MatterNode]
        ) {
            self.id = id
            self.name = name
            self.createdAt = createdAt
            self.internetAccessOption = internetAccessOption
            self.preferredNetwork = preferredNetwork
            self.settingsUpdatedAt = settingsUpdatedAt
            self.recovery = recovery
            self.routers = routers
            self.rooms = rooms
            self.networks = networks
            self.matterNodes = matterNodes
        }
    }

    /// A router, with its Active dataset as read while the backup was made (nil: it had none, or did not answer).
    package struct Router: Codable, Sendable, Hashable {
        package var id: String
        package var interface: String?
        package var restURL: String?
        package var borderAgentId: String?
        package var firstSeenAt: Double
        package var activeDataset: String?

        package init(id: String, interface: String?, restURL: String?, borderAgentId: String?, firstSeenAt: Double, activeDataset: String?) {
            self.id = id
            self.interface = interface
            self.restURL = restURL
            self.borderAgentId = borderAgentId
            self.firstSeenAt = firstSeenAt
            self.activeDataset = activeDataset
        }
    }

    /// A network of a structure's directory, with its credentials when held (`dataset`).
    package struct Network: Codable, Sendable, Hashable {
        package var extPanId: String
        package var name: String
        package var channel: Int?
        package var activeTimestamp: UInt64?
        package var dataset: String?
        package var source: String
        package var sourceDetail: String
        package var firstSeenAt: Double
        package var lastSeenAt: Double
        package var mdnsSeenAt: Double?

        package init(
            extPanId: String, name: String, channel: Int?, activeTimestamp: UInt64?, dataset: String?, source: String, sourceDetail: String,
            firstSeenAt: Double, lastSeenAt: Double, mdnsSeenAt: Double?
        ) {
            self.extPanId = extPanId
            self.name = name
            self.channel = channel
            self.activeTimestamp = activeTimestamp
            self.dataset = dataset
            self.source = source
            self.sourceDetail = sourceDetail
            self.firstSeenAt = firstSeenAt
            self.lastSeenAt = lastSeenAt
            self.mdnsSeenAt = mdnsSeenAt
        }
    }

    /// A Matter node of a structure: its ids, name, room, and the commissioner (`backend`) that holds it.
    package struct MatterNode: Codable, Sendable, Hashable {
        package var nodeId: UInt64
        package var vendorId: Int
        package var productId: Int
        package var commissionedAt: Double
        package var sessionId: String?
        package var payloadId: String?
        package var extPanId: String?
        package var backend: String
        package var name: String?
        package var room: String?

        package init(
            nodeId: UInt64, vendorId: Int, productId: Int, commissionedAt: Double, sessionId: String?, payloadId: String?, extPanId: String?,
            backend: String, name: String?, room: String?
        ) {
            self.nodeId = nodeId
            self.vendorId = vendorId
            self.productId = productId
            self.commissionedAt = commissionedAt
            self.sessionId = sessionId
            self.payloadId = payloadId
            self.extPanId = extPanId
            self.backend = backend
            self.name = name
            self.room = room
        }
    }

    /// An API token: its name, scope and SHA-256 hash (the token itself is never kept).
    package struct Token: Codable, Sendable, Hashable {
        package var name: String
        package var scope: String
        package var hash: String
        package var createdAt: Double
        package var lastUsedAt: Double?

        package init(name: String, scope: String, hash: String, createdAt: Double, lastUsedAt: Double?) {
            self.name = name
            self.scope = scope
            self.hash = hash
            self.createdAt = createdAt
            self.lastUsedAt = lastUsedAt
        }
    }
}

/// What a backup holds, without a secret: what `tbrctl backup show` and `--json` print.
package struct BackupSummary: Codable, Sendable, Hashable {
    package struct Network: Codable, Sendable, Hashable {
        package var structure: String
        package var name: String
        package var extPanId: String
        /// Whether the backup holds its credentials (an Active dataset).
        package var credentials: Bool
        package var preferred: Bool
    }
    package var format: Int
    package var createdAt: String
    package var host: String
    package var tbrdVersion: String
    package var structures: [String]
    package var routers: Int
    package var routersWithDataset: Int
    package var matterNodes: Int
    package var tokens: Int
    package var networks: [Network]

    /// The summary of `contents`, sealed with format `format`.
    package init(_ contents: BackupContents, format: Int) {
        self.format = format
        createdAt = contents.createdAt
        host = contents.host
        tbrdVersion = contents.tbrdVersion
        structures = contents.structures.map(\.name)
        routers = contents.routers.count
        routersWithDataset = contents.routers.count { $0.activeDataset != nil }
        matterNodes = contents.structures.reduce(0) { $0 + $1.matterNodes.count }
        tokens = contents.tokens.count
        networks = contents.structures.flatMap { s in
            s.networks.map {
                Network(structure: s.name, name: $0.name, extPanId: $0.extPanId, credentials: $0.dataset != nil, preferred: s.preferredNetwork == $0.extPanId)
            }
        }
    }
}
