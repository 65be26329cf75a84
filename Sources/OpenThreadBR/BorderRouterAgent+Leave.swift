import DBus

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
        let waited: Result<Void, AgentError> = await withTaskGroup(of: Result<Void, AgentError>?.self) { group in
            group.addTask {
                do {
                    for try await signal in ready where signal.sender != oldOwner { return .success(()) }
                    return .failure(self.failure(operation, .disconnected))
                } catch {
                    return .failure(AgentError.from(error, interfaceName: self.interfaceName, operation: operation))
                }
            }
            group.addTask {
                do { try await Task.sleep(for: timeout) } catch { return nil }
                return .failure(self.failure(operation, .timedOut))
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first ?? .failure(self.failure(operation, .cancelled))
        }
        try waited.get()
    }
}
