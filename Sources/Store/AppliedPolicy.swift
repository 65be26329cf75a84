public import TBRFoundation

/// What the policy reconciler last did on one router.
public struct AppliedPolicy: Hashable, Sendable {
    /// The outcome (the `state` column).
    public enum State: String, Hashable, Sendable, CaseIterable {
        /// The router runs the option.
        case applied
        /// Not applied yet (the router is offline, or the reconciler has not reached it).
        case pending
        /// Applying failed; the detail says what failed.
        case failed
        /// The router cannot provide the option; the detail says what it lacks.
        case unsupported
    }

    /// The internet-access option applied or being applied; nil for "no policy".
    public var option: String?
    /// The outcome.
    public var state: State
    /// What failed, what the router lacks, or a note; `""` for none (never empty when failed or unsupported).
    public var detail: String
    /// When this record was written (seconds since the Unix epoch).
    public var updatedAt: Double

    /// A record with these values.
    public init(option: String?, state: State, detail: String = "", updatedAt: Double) {
        self.option = option
        self.state = state
        self.detail = detail
        self.updatedAt = updatedAt
    }
}

/// One router's outcome to record with ``TBRStore/recordAppliedPolicies(_:)``.
public struct AppliedPolicyRecord: Hashable, Sendable {
    /// The router.
    public var router: DeviceID
    /// The option applied or being applied; nil for "no policy".
    public var option: String?
    /// The outcome.
    public var state: AppliedPolicy.State
    /// The detail (see ``AppliedPolicy/detail``).
    public var detail: String

    /// A record with these values.
    public init(router: DeviceID, option: String?, state: AppliedPolicy.State, detail: String = "") {
        self.router = router
        self.option = option
        self.state = state
        self.detail = detail
    }
}
