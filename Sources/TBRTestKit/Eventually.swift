/// Polls `condition` every 10 ms until it holds. A condition that throws counts as not holding yet
/// (a property read while an agent restarts, say); the last error is part of the failure.
/// - Throws: ``TestKitError`` naming `what` when `timeout` passes.
public func eventually(
    _ what: String, timeout: Duration = .seconds(5), _ condition: () async throws -> Bool
) async throws {
    let deadline = ContinuousClock.now.advanced(by: timeout)
    var lastError: (any Error)?
    while ContinuousClock.now < deadline {
        do {
            if try await condition() { return }
        } catch {
            lastError = error
        }
        try await Task.sleep(for: .milliseconds(10))
    }
    throw TestKitError(
        "timed out after \(timeout) waiting until \(what)" + (lastError.map { " (last error: \($0))" } ?? ""))
}
