/// What the policy reconciler last did on one router.
public struct AppliedPolicy: Hashable, Sendable {
    /// The outcome.
    public enum State: Hashable, Sendable {
        /// The router runs the option.
        case applied
        /// Not applied yet (the router is offline, or the reconciler has not reached it).
        case pending
        /// Applying failed, with the error in words.
        case failed(String)

        /// The text stored in the `state` column.
        var storedName: String {
            switch self {
            case .applied: "applied"
            case .pending: "pending"
            case .failed: "failed"
            }
        }
    }

    /// The internet-access option applied or being applied; nil for "no policy".
    public var option: String?
    /// The outcome.
    public var state: State
    /// When this record was written (seconds since the Unix epoch).
    public var updatedAt: Double

    /// A record with these values.
    public init(option: String?, state: State, updatedAt: Double) {
        self.option = option
        self.state = state
        self.updatedAt = updatedAt
    }
}
