import DBus
import TBRFoundation

extension BorderRouterAgent {
    /// `LeaveNetwork()`, then waits for the agent to come back.
    ///
    /// The agent detaches gracefully, erases its persistent data (dataset, Border Agent ID), replies, and
    /// exits; systemd restarts it (after 5 s by default). This returns when a new agent instance owns the
    /// bus name *and* has sent `Ready`: from then on it answers calls, with role `disabled`, no dataset
    /// and a new Border Agent ID.
    /// - Parameter timeout: how long to wait for the new instance after the reply (default 30 s).
    /// - Throws: ``AgentError``: the agent's error; `timedOut` if no new instance becomes ready in time.
    public func leaveNetwork(timeout: Duration = .seconds(30)) async throws(AgentError) {
        let operation = "LeaveNetwork"
        // Subscribe before calling, so a quick restart is not missed.
        let ready = try await readySignals()
        let oldOwner: String?
        do { oldOwner = try await connection.nameOwner(of: busName) } catch {
            throw AgentError.from(error, interfaceName: interfaceName, operation: operation)
        }
        do {
            try await callVoid("LeaveNetwork", timeout: networkTimeout)
        } catch where error.cause == .agentExited {
            // The agent exited before its reply reached the bus; it restarts all the same.
        }
        // The wait is a TimeLimit on the agent's clock: a new instance's Ready, the timeout, or the
        // caller giving up, whichever comes first.
        let outcome: TimeLimit.Outcome<Void>
        do {
            outcome = try await TimeLimit.run(timeout, clock: clock) {
                // The stream throws AgentError (cause `cancelled` when the wait is cut off).
                for try await signal in ready where signal.sender != oldOwner { return }
                try Task.checkCancellation()
                throw self.failure(operation, .disconnected)
            }
        } catch let error as AgentError {
            throw error
        } catch {
            throw failure(operation, .cancelled)
        }
        guard case .finished = outcome else { throw failure(operation, .timedOut) }
    }
}
