public import MatterOnboarding
public import MeshCoP

/// A Matter commissioner tbrd hands devices to: the seam between the commissioning sessions
/// (`BorderRouterService`) and a real or simulated Matter stack. Two ship: ``MatterServerCommissioner``
/// (python-matter-server's WebSocket API) and ``SimulatedCommissioner`` (for the demo and tests).
///
/// Every call is bounded by the `timeout` it is given and fails with a ``CommissionerError`` saying
/// what happened in words. Secrets (the setup code inside a request, the network key inside a
/// dataset, the passcode of a new commissioning window) are never logged by a commissioner.
public protocol Commissioner: Sendable {
    /// The backend's name as tbrd.conf spells it (`matter-server`, `simulated`).
    var backendName: String { get }

    /// Runs what the commissioner keeps going in the background (a connection and its events) until
    /// the task is cancelled. Calls made while it does not run fail as unavailable.
    func run() async

    /// Whether the commissioner can be reached now.
    /// - Throws: ``CommissionerError`` (`unavailable`, `timedOut`).
    func checkAvailable(timeout: Duration) async throws(CommissionerError)

    /// Hands the Thread network's credentials (its active dataset) to the commissioner, which gives them
    /// to the devices it commissions next.
    /// - Throws: ``CommissionerError``.
    func handOverCredentials(_ dataset: OperationalDataset, timeout: Duration) async throws(CommissionerError)

    /// Commissions one device, reporting the stages the backend reports (``CommissionerProgress``) as
    /// they happen, and returns the new node.
    /// - Throws: ``CommissionerError``; its ``CommissionerError/stage`` names the stage that failed when
    ///   the backend knows it.
    func commission(
        _ request: CommissioningRequest, timeout: Duration, progress: @escaping @Sendable (CommissionerProgress) -> Void
    ) async throws(CommissionerError) -> CommissionedNode

    /// Opens a commissioning window on `node` for `seconds`, so that another controller can commission
    /// it too (multi-admin), and returns the codes to give that controller.
    /// - Throws: ``CommissionerError`` saying why the node cannot be shared.
    func openCommissioningWindow(_ node: NodeID, seconds: Int, timeout: Duration) async throws(CommissionerError) -> SharingCodes

    /// Removes `node` from the fabric.
    /// - Throws: ``CommissionerError``.
    func removeNode(_ node: NodeID, timeout: Duration) async throws(CommissionerError)

    /// The nodes the commissioner knows.
    /// - Throws: ``CommissionerError``.
    func nodes(timeout: Duration) async throws(CommissionerError) -> [CommissionedNode]
}
