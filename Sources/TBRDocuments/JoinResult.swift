public import DeviceModel

/// The answer to `network join`; JSON `{status, migrationDelaySeconds}`.
public struct JoinResult: Sendable, Hashable, Encodable {
    /// How it went (the contract's one status type).
    public var status: OperationStatus
    /// When the whole mesh moves to the new network, the delay before it does (otbr-agent's pending
    /// dataset delay); 0 when the change was immediate.
    public var migrationDelaySeconds: Int
    /// Why it failed, for standard error (not part of the JSON).
    public var message: String?

    private enum CodingKeys: String, CodingKey {
        case status, migrationDelaySeconds
    }

    /// A value as given.
    public init(status: OperationStatus, migrationDelaySeconds: Int, message: String?) {
        self.status = status
        self.migrationDelaySeconds = migrationDelaySeconds
        self.message = message
    }
}
