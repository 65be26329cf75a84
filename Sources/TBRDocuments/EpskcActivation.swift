public import DeviceModel

/// The answer to `epskc activate`; its JSON form is the contract `{status, epskc, validDurationSeconds}`
/// (`epskc` null unless `success`).
public struct EpskcActivation: Sendable, Hashable, Encodable {
    /// How it went (the contract's one status type).
    public var status: OperationStatus
    /// The key, on success: the point of the call, so it is printed.
    public var epskc: String?
    /// How long the router granted the key for, in seconds (0 unless success).
    public var validDurationSeconds: Int
    /// Why it failed, for standard error (not part of the JSON).
    public var message: String?

    private enum CodingKeys: String, CodingKey {
        case status, epskc, validDurationSeconds
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(status, forKey: .status)
        try c.encode(epskc, forKey: .epskc)
        try c.encode(validDurationSeconds, forKey: .validDurationSeconds)
    }

    /// A value as given.
    public init(status: OperationStatus, epskc: String?, validDurationSeconds: Int, message: String?) {
        self.status = status
        self.epskc = epskc
        self.validDurationSeconds = validDurationSeconds
        self.message = message
    }
}
