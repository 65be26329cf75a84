public import DeviceModel

/// One router's row of the internet-access policy: `{"id": "wpan0", "state": "applied", "detail": ""}`
/// (`Structure1.PolicyStatus`, the state `applied`, `pending`, `failed` or `unsupported`).
public struct PolicyRouterView: Sendable, Hashable, Encodable {
    /// The router's id.
    public var id: String
    /// `applied`, `pending`, `failed` or `unsupported`.
    public var state: RouterPolicyStatus.State
    /// What failed, what the router lacks, or a note; `""` for none.
    public var detail: String


    /// A value as given.
    public init(id: String, state: RouterPolicyStatus.State, detail: String) {
        self.id = id
        self.state = state
        self.detail = detail
    }
}
