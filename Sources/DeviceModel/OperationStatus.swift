/// How a router command that answers with a status went: `ActivateEpskcMode`'s and `JoinNetwork`'s
/// first reply argument, and the `status` of `tbrctl --json epskc activate` and `network join`. One type
/// for tbrd, which sends it, and every client, which switches on it: the wire form is the raw value (a
/// D-Bus string, a JSON string), and a value outside these is a reply that does not decode, not a case
/// for a `default:` to guess at.
public enum OperationStatus: String, Sendable, Hashable, Codable, CaseIterable {
    /// Done: the key is active, the router joined (or the whole mesh's move is scheduled).
    case success
    /// Another key or network operation holds the router; try again later (tbrctl exits 75).
    case busy
    /// The router cannot do this (built without it, or the feature is off).
    case notSupported
    /// The router is not in a state to do this.
    case invalidState
    /// The request was refused as invalid (tbrctl exits 65 for a refused dataset).
    case invalidArgument
    /// Anything else; the message says what.
    case failed
}


extension OperationStatus {
    /// How the trait API's `activateEpskcMode` went, as tbrd reports it.
    public init(_ status: ThreadNetworkManagementTrait.ActivateEpskcModeStatus) {
        switch status {
        case .success: self = .success
        case .busy: self = .busy
        case .notSupported: self = .notSupported
        case .invalidState: self = .invalidState
        case .invalidArgument: self = .invalidArgument
        case .failed: self = .failed
        }
    }

    /// How the trait API's network commands went, as tbrd reports it.
    public init(_ status: ThreadNetworkManagementTrait.NetworkOperationStatus) {
        switch status {
        case .success: self = .success
        case .busy: self = .busy
        case .notSupported: self = .notSupported
        case .invalidState: self = .invalidState
        case .invalidArgument: self = .invalidArgument
        case .failed: self = .failed
        }
    }
}
