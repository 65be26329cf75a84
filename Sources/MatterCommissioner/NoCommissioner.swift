public import MatterOnboarding
public import MeshCoP

/// No Matter commissioner: every call fails with `notSupported`, saying none is configured. The value a
/// service is built with when it commissions nothing (tbrd's `matter-backend = none`, tbrctl's direct
/// mode), so that the sessions, the node commands and their errors take one path with or without one.
public struct NoCommissioner: Commissioner {
    /// No commissioner.
    public init() {}

    public var backendName: String { "none" }

    /// Nothing runs in the background: returns at once.
    public func run() async {}

    public func checkAvailable(timeout: Duration) async throws(CommissionerError) { throw Self.refusal }

    public func handOverCredentials(_ dataset: OperationalDataset, timeout: Duration) async throws(CommissionerError) {
        throw Self.refusal
    }

    public func commission(
        _ request: CommissioningRequest, timeout: Duration, progress: @escaping @Sendable (CommissionerProgress) -> Void
    ) async throws(CommissionerError) -> CommissionedNode {
        throw Self.refusal
    }

    public func openCommissioningWindow(_ node: NodeID, seconds: Int, timeout: Duration) async throws(CommissionerError) -> SharingCodes {
        throw Self.refusal
    }

    public func removeNode(_ node: NodeID, timeout: Duration) async throws(CommissionerError) { throw Self.refusal }

    public func writeNodeLabel(_ node: NodeID, _ label: String, timeout: Duration) async throws(CommissionerError) {
        throw Self.refusal
    }

    public func isReachable(_ node: NodeID, timeout: Duration) async throws(CommissionerError) -> Bool { throw Self.refusal }

    public func nodes(timeout: Duration) async throws(CommissionerError) -> [CommissionedNode] { throw Self.refusal }

    /// What every call answers.
    static let refusal = CommissionerError(.notSupported, "no Matter commissioner is configured")
}
