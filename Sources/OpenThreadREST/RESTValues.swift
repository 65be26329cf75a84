public import MeshCoP

/// What `GET /node` says of an agent (`../shared/otbr/rest.md`): only the fields tbrd uses.
public struct RESTNode: Hashable, Sendable {
    /// `baId`: the Border Agent ID.
    public var borderAgentID: BorderAgentID?
    /// `state`: the role as the agent spells it (`disabled`, `detached`, `child`, `router`, `leader`).
    public var roleName: String
    /// `networkName`; before any network the agent says `OpenThread` (a default, not a network).
    public var networkName: String?
    /// `extPanId`; before any network `dead00beef00cafe` (a default, not a network).
    public var extendedPANID: ExtendedPANID?
    /// `rloc16`, as the agent writes it (`0xfffe`).
    public var rloc16: String?
    /// `extAddress` (16 hex digits).
    public var extendedAddress: String?

    /// A node as given.
    public init(
        borderAgentID: BorderAgentID?, roleName: String, networkName: String?, extendedPANID: ExtendedPANID?, rloc16: String?,
        extendedAddress: String?
    ) {
        self.borderAgentID = borderAgentID
        self.roleName = roleName
        self.networkName = networkName
        self.extendedPANID = extendedPANID
        self.rloc16 = rloc16
        self.extendedAddress = extendedAddress
    }
}

/// The state of the agent's ephemeral key (`GET /node/ba-epskc/key`).
public struct RESTEpskcKeyState: Hashable, Sendable {
    /// `disabled`, `stopped`, `started`, `connected` (a commissioner is in the DTLS handshake) or
    /// `accepted` (a commissioner was accepted: the key was used).
    public enum State: String, Hashable, Sendable {
        case disabled, stopped, started, connected, accepted
    }

    /// The state.
    public var state: State
    /// The UDP port of `_meshcop-e._udp`; 0 unless started.
    public var port: UInt16

    /// A state as given.
    public init(state: State, port: UInt16) {
        self.state = state
        self.port = port
    }
}

/// A key the agent started (`POST /node/ba-epskc/key`): the 9 digits (a secret) and its port.
public struct RESTEpskcGrant: Hashable, Sendable, CustomStringConvertible {
    /// The key: shown to the caller who asked, never logged.
    public var key: EphemeralKey
    /// The port of `_meshcop-e._udp`.
    public var port: UInt16

    /// A grant as given.
    public init(key: EphemeralKey, port: UInt16) {
        self.key = key
        self.port = port
    }

    public var description: String { "RESTEpskcGrant(<redacted>, port \(port))" }
}

/// What a dataset write did (`PUT /node/dataset/active|pending`).
public enum RESTDatasetWrite: Hashable, Sendable {
    /// 201: there was none.
    case created
    /// 200: it replaced one.
    case updated
}
