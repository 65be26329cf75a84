public import MatterOnboarding
public import MeshCoP

/// A Matter commissioner tbrd hands devices to: the seam between the commissioning sessions
/// (`BorderRouterService`) and a Matter stack. One ships: ``MatterServerCommissioner``
/// (python-matter-server's WebSocket API; `matter-sim` stands in for the server in the demo and tests);
/// ``NoCommissioner`` is the absence of one, refusing every call as `notSupported`.
///
/// Every call is bounded by the `timeout` it is given and fails with a ``CommissionerError`` saying
/// what happened in words. Secrets (the setup code inside a request, the network key inside a
/// dataset, the passcode of a new commissioning window) are never logged by a commissioner.
///
/// The commissioner is shared with other controllers (Home Assistant runs the same server): a node is
/// tbrd's only when the answer to tbrd's own command names it. A commissioner never reports, removes
/// or changes a node on the strength of an event anyone could have caused.
public protocol Commissioner: Sendable {
    /// The backend's name as tbrd.conf spells it (`matter-server`).
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
    /// they happen, and returns the new node. Stages come only from the answer to this call's own
    /// command, never from events another controller's commissioning could have caused.
    /// - Throws: ``CommissionerError``; its ``CommissionerError/stage`` names the stage that failed when
    ///   the backend knows it, and ``CommissionerError/isOutcomeUnknown`` says when the device may still
    ///   be added (a timeout or a lost connection after the command was sent).
    func commission(
        _ request: CommissioningRequest, timeout: Duration, progress: @escaping @Sendable (CommissionerProgress) -> Void
    ) async throws(CommissionerError) -> CommissionedNode

    /// Opens a commissioning window on `node` for `seconds`, so that another controller can commission
    /// it too (multi-admin), and returns the codes to give that controller.
    /// - Throws: ``CommissionerError`` saying why the node cannot be shared.
    func openCommissioningWindow(_ node: NodeID, seconds: Int, timeout: Duration) async throws(CommissionerError) -> SharingCodes

    /// Removes `node` from the fabric. Called only for a node a structure of tbrd's holds, at a person's
    /// request.
    /// - Throws: ``CommissionerError``.
    func removeNode(_ node: NodeID, timeout: Duration) async throws(CommissionerError)

    /// Writes `label` to the node's Basic Information NodeLabel (endpoint 0, cluster 0x0028, attribute 5).
    /// - Throws: ``CommissionerError``: `refused` when the device (or the server) refuses the write,
    ///   saying why.
    func writeNodeLabel(_ node: NodeID, _ label: String, timeout: Duration) async throws(CommissionerError)

    /// Whether `node` answers now.
    /// - Throws: ``CommissionerError``: `refused` with server code 5 for a node the commissioner does
    ///   not know.
    func isReachable(_ node: NodeID, timeout: Duration) async throws(CommissionerError) -> Bool

    /// The nodes the commissioner knows (its own and every other controller's on a shared server).
    /// - Throws: ``CommissionerError``.
    func nodes(timeout: Duration) async throws(CommissionerError) -> [CommissionedNode]
}
