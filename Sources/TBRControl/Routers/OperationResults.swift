import TBRDBusAPI

/// The answer to `epskc activate`; its JSON form is the contract `{status, epskc, validDurationSeconds}`
/// (`epskc` null unless `success`).
struct EpskcActivation: Sendable, Hashable, Encodable {
    /// How it went (the contract's one status type).
    var status: OperationStatus
    /// The key, on success: the point of the call, so it is printed.
    var epskc: String?
    /// How long the router granted the key for, in seconds (0 unless success).
    var validDurationSeconds: Int
    /// Why it failed, for standard error (not part of the JSON).
    var message: String?

    private enum CodingKeys: String, CodingKey {
        case status, epskc, validDurationSeconds
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(status, forKey: .status)
        try c.encode(epskc, forKey: .epskc)
        try c.encode(validDurationSeconds, forKey: .validDurationSeconds)
    }
}

/// The answer to `network join`; JSON `{status, migrationDelaySeconds}`.
struct JoinResult: Sendable, Hashable, Encodable {
    /// How it went (the contract's one status type).
    var status: OperationStatus
    /// When the whole mesh moves to the new network, the delay before it does (otbr-agent's pending
    /// dataset delay); 0 when the change was immediate.
    var migrationDelaySeconds: Int
    /// Why it failed, for standard error (not part of the JSON).
    var message: String?

    private enum CodingKeys: String, CodingKey {
        case status, migrationDelaySeconds
    }
}
