import DBus

/// Runs `body` while another client of tbrd (a connection of its own on the bus at `address`) creates and
/// deletes structures `W1`, `W2`, … as fast as it can: for tests that reads never fail because of a
/// concurrent writer. The churn stops, and its connection closes, before this returns.
public func withStructureChurn<R: Sendable>(busAddress address: String, _ body: () async throws -> R) async throws -> R {
    let writer = try await Connection(bus: .address(address))
    let churn = Task {
        let manager = RemoteObject(connection: writer, destination: "io.tbrd", path: "/io/tbrd", interface: "io.tbrd.Manager1")
        var n = 0
        while !Task.isCancelled {
            n += 1
            // Failures are expected here (the names race with nothing, but tbrd may be stopping): the
            // churn only has to keep tbrd busy.
            _ = try? await manager.call("CreateStructure", [.string("W\(n)")])
            _ = try? await manager.call("DeleteStructure", [.string("W\(n)")])
        }
    }
    let result: Result<R, any Error>
    do { result = .success(try await body()) } catch { result = .failure(error) }
    churn.cancel()
    _ = await churn.result
    await writer.close()
    return try result.get()
}
