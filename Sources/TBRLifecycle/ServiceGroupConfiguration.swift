public import TBRFoundation

/// Everything a ``ServiceGroup`` needs.
public struct ServiceGroupConfiguration: Sendable {
    /// The services, started in this order and shut down gracefully in the reverse order.
    public var services: [ServiceConfiguration]
    /// Signals that start a graceful shutdown; the same signal again during one cancels every service.
    public var gracefulShutdownSignals: [UnixSignal]
    /// Signals that call ``onReload`` (trapped only when there is one).
    public var reloadSignals: [UnixSignal]
    /// Called for reload signals while the services keep running: one call at a time, in a task of its
    /// own (shutdown signals are not held back); signals arriving during a call are merged into one
    /// more call.
    public var onReload: (@Sendable (UnixSignal) async -> Void)?
    /// How long a graceful shutdown may take before the remaining services are cancelled; nil waits
    /// for ever.
    public var gracefulShutdownTimeout: Duration?
    /// Where signals come from (the process's real signals by default).
    public var signalSource: any SignalSource
    /// The clock of the shutdown timeout.
    public var clock: any TBRClock
    /// Receives the group's records (start, signals, services ending, shutdown).
    public var logger: Logger

    /// A configuration for `services`.
    public init(
        services: [ServiceConfiguration], gracefulShutdownSignals: [UnixSignal] = [.sigterm, .sigint],
        reloadSignals: [UnixSignal] = [.sighup], onReload: (@Sendable (UnixSignal) async -> Void)? = nil,
        gracefulShutdownTimeout: Duration? = .seconds(30), signalSource: any SignalSource = ProcessSignalSource(),
        clock: any TBRClock = SystemClock(), logger: Logger
    ) {
        self.services = services
        self.gracefulShutdownSignals = gracefulShutdownSignals
        self.reloadSignals = reloadSignals
        self.onReload = onReload
        self.gracefulShutdownTimeout = gracefulShutdownTimeout
        self.signalSource = signalSource
        self.clock = clock
        self.logger = logger
    }
}
