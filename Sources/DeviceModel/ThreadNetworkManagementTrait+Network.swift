public import MeshCoP

extension ThreadNetworkManagementTrait {
    /// The Thread network a router is on (Google's `NetworkInfo`, with typed values).
    public struct NetworkInfo: Hashable, Sendable, Codable {
        /// The network name.
        public var networkName: String
        /// The PAN ID.
        public var panId: PANID
        /// The extended PAN ID, which identifies the network.
        public var extendedPanId: ExtendedPANID
        /// The radio channel.
        public var channel: Channel

        /// Network information as given.
        public init(networkName: String, panId: PANID, extendedPanId: ExtendedPANID, channel: Channel) {
            self.networkName = networkName
            self.panId = panId
            self.extendedPanId = extendedPanId
            self.channel = channel
        }

        /// The network of `dataset`, or nil when it lacks the name, PAN ID, extended PAN ID or channel.
        public init?(dataset: OperationalDataset) {
            guard let name = dataset.networkName, let pan = dataset.panID, let xpan = dataset.extendedPANID,
                let channel = dataset.channel
            else { return nil }
            self.init(networkName: name.rawValue, panId: pan, extendedPanId: xpan, channel: channel)
        }
    }

    /// Which routers a `joinNetwork` moves when the router is already on another network.
    public enum JoinScope: String, Hashable, Sendable, Codable {
        /// The whole mesh moves, as Google's trait promises (otbr-agent `AttachAllNodesTo`: a pending
        /// dataset that takes effect after a delay).
        case wholeNetwork
        /// Only this router moves (otbr-agent `Join`): it leaves its mesh behind.
        case thisRouterOnly
    }

    /// The `joinNetwork` request.
    public struct JoinNetworkRequest: Hashable, Sendable, Codable {
        /// The active operational dataset of the network to join, as TLVs.
        public var operationalDatasetTlvs: [UInt8]
        /// Who moves when the router is on another network.
        public var scope: JoinScope

        /// A request to join the network of `operationalDatasetTlvs`.
        public init(operationalDatasetTlvs: [UInt8], scope: JoinScope = .wholeNetwork) {
            self.operationalDatasetTlvs = operationalDatasetTlvs
            self.scope = scope
        }
    }

    /// How a network command went (ours: Google publishes no values).
    public enum NetworkOperationStatus: String, Hashable, Sendable, Codable, CaseIterable {
        /// Done (or scheduled, for a whole-mesh move).
        case success
        /// The router is busy with another network operation.
        case busy
        /// The router cannot do this.
        case notSupported
        /// The router is not in a state to do this.
        case invalidState
        /// The dataset is not valid; nothing was changed.
        case invalidArgument
        /// Anything else, including a router that cannot be reached; see the message.
        case failed
    }

    /// What a successful `joinNetwork` did.
    public enum JoinNetworkOutcome: String, Hashable, Sendable, Codable {
        /// The router joined the network (it had none, or moved alone).
        case joined
        /// The router was already on that network; nothing changed.
        case alreadyJoined
        /// The whole mesh moves after ``JoinNetworkResponse/migrationDelay``.
        case migrationScheduled
        /// The whole mesh took the dataset at once (nothing that affects connectivity changed).
        case migrated
    }

    /// The `joinNetwork` response.
    public struct JoinNetworkResponse: Hashable, Sendable, Codable {
        /// How it went.
        public var status: NetworkOperationStatus
        /// What happened, on success.
        public var outcome: JoinNetworkOutcome?
        /// For a whole-mesh move, when the new dataset takes effect (otbr-agent's delay timer).
        public var migrationDelay: Duration?
        /// Why it failed, as a sentence (nil on success).
        public var message: String?

        /// A response as given.
        public init(
            status: NetworkOperationStatus, outcome: JoinNetworkOutcome? = nil, migrationDelay: Duration? = nil,
            message: String? = nil
        ) {
            self.status = status
            self.outcome = outcome
            self.migrationDelay = migrationDelay
            self.message = message
        }

        /// A failure with `status` and `message`.
        public static func failure(_ status: NetworkOperationStatus, _ message: String) -> Self {
            Self(status: status, message: message)
        }
    }
}
