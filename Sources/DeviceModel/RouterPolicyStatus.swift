public import TBRFoundation

/// How far one border router holds its structure's internet-access policy
/// (``ThreadNetworkSettingsTrait/policyStatus``), as the policy reconciler last found it.
public struct RouterPolicyStatus: Hashable, Sendable, Codable {
    /// The state (the D-Bus spelling is the raw value).
    public enum State: String, Hashable, Sendable, Codable, CaseIterable {
        /// The router (and tbrd's host firewall for it) runs the structure's option.
        case applied
        /// Not yet: the router is offline, or applying is in progress.
        case pending
        /// Applying failed; ``RouterPolicyStatus/detail`` says what failed. It is retried.
        case failed
        /// The router cannot provide the option; ``RouterPolicyStatus/detail`` says what it lacks. The
        /// host firewall part is applied all the same.
        case unsupported
    }

    /// The router.
    public var deviceID: DeviceID
    /// The state.
    public var state: State
    /// What failed, what the router lacks, or a note (for example why it is pending); `""` for none.
    public var detail: String

    /// A status as given.
    public init(deviceID: DeviceID, state: State, detail: String = "") {
        self.deviceID = deviceID
        self.state = state
        self.detail = detail
    }
}
