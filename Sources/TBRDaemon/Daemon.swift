import FoundationEssentials
public import TBRFoundation
public import TBRLifecycle

/// tbrd as a ``TBRLifecycle/Service``: owns `io.tbrd` on the bus, serves the trait model over D-Bus
/// (docs/dbus-api.md), keeps its state in SQLite, journals every ePSKc event before signalling it, and
/// recovers open sessions after a restart.
///
/// ``run()`` builds the runtime once (state database, bus connection, border router service), serves
/// until a graceful shutdown or cancellation, and stops in order before it returns: it releases
/// `io.tbrd`, lets the calls in flight finish for up to ``DaemonConfiguration/shutdownTimeout``, stops
/// the service and closes the connection. Run it with ``GracefulShutdownBehavior/notify`` so that a
/// shutdown signal starts that sequence; the group's own timeout is the hard deadline that cancels it.
public struct Daemon: Service {
    /// What tbrd was told.
    public let configuration: DaemonConfiguration
    let logger: Logger
    let clock: any TBRClock

    /// A daemon with `configuration`, logging through `logger`.
    public init(configuration: DaemonConfiguration, logger: Logger, clock: any TBRClock = SystemClock()) {
        self.configuration = configuration
        self.logger = logger
        self.clock = clock
    }

    /// Runs tbrd until a graceful shutdown or cancellation; everything it opened is closed when it returns.
    /// - Throws: ``DaemonStartError`` when it cannot start (store, bus, name taken); the error of a part
    ///   that failed while serving (for example the bus going away).
    public func run() async throws {
        let runtime = try await DaemonRuntime.start(
            configuration: configuration, logger: logger, clock: clock,
            notifier: ServiceNotifier(environment: ProcessInfo.processInfo.environment))
        try await runtime.serve()
    }
}
