/// A long-running part of a program, run by a ``ServiceGroup``: a D-Bus server, a reconciler, a watcher.
///
/// `run()` returns (or throws) when the service is done. It should end promptly when its task is
/// cancelled; a service that has work to finish first (configured with
/// ``GracefulShutdownBehavior/notify``) can learn of the shutdown with ``gracefulShutdown()`` or
/// ``withGracefulShutdownHandler(operation:onGracefulShutdown:)``.
public protocol Service: Sendable {
    /// Runs the service until it is done, cancelled, or shut down gracefully.
    /// - Throws: whatever made the service fail; the group then shuts the others down and rethrows it.
    func run() async throws
}
