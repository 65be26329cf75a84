import Synchronization
public import TBRFoundation

/// Runs a program's services with structured concurrency and stops them cleanly on a signal.
///
/// ``run()`` starts every service in a child task of one task group (no detached tasks) and returns
/// when all of them have ended:
/// - a graceful-shutdown signal (`SIGTERM`, `SIGINT` by default) or ``triggerGracefulShutdown()`` shuts
///   the services down in reverse start order, one after the other: each is notified
///   (``gracefulShutdown()``) and, by default, cancelled (``GracefulShutdownBehavior``); after
///   ``ServiceGroupConfiguration/gracefulShutdownTimeout``, or when the signal comes again, every
///   remaining service is cancelled;
/// - a reload signal (`SIGHUP`) calls ``ServiceGroupConfiguration/onReload`` while everything keeps
///   running;
/// - a service that throws, or returns, while the group runs ends the group as its
///   ``TerminationBehavior`` says (by default: the others are cancelled and `run()` throws).
///
/// Signals are trapped (their default action suspended) from the start of `run()` to its end.
public final class ServiceGroup: Sendable {
    enum Event: Sendable {
        case finished(index: Int, error: (any Error)?)
        case signal(UnixSignal)
        case shutdownRequested
        case timedOut
    }

    private let configuration: ServiceGroupConfiguration
    private let events: AsyncStream<Event>
    private let mailbox: AsyncStream<Event>.Continuation
    private let started = Locked(false)
    /// Whether ``triggerGracefulShutdown()`` was called (it posts once).
    private let shutdownRequested = Locked(false)

    /// A group of `configuration.services`.
    public init(configuration: ServiceGroupConfiguration) {
        self.configuration = configuration
        // Unbounded, and small by construction: one `finished` per service, one shutdown request (see
        // triggerGracefulShutdown), one timeout, and the signals, which the loop takes as they come (it
        // waits on nothing else). Dropping any of them could leave the group running forever.
        (events, mailbox) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .unbounded)
    }

    /// A group of `services` with the default behaviours (see ``ServiceConfiguration``), shut down
    /// gracefully on `gracefulShutdownSignals`, calling `onReload` on `SIGHUP` when given.
    public convenience init(
        services: [any Service], gracefulShutdownSignals: [UnixSignal] = [.sigterm, .sigint],
        onReload: (@Sendable (UnixSignal) async -> Void)? = nil, logger: Logger
    ) {
        self.init(
            configuration: ServiceGroupConfiguration(
                services: services.map { ServiceConfiguration($0) }, gracefulShutdownSignals: gracefulShutdownSignals,
                onReload: onReload, logger: logger))
    }

    deinit { mailbox.finish() }

    /// Starts a graceful shutdown, as a shutdown signal would (but never escalates to cancellation).
    /// Callable from anywhere, before or during ``run()``.
    public func triggerGracefulShutdown() {
        let first = shutdownRequested.withLock { requested in
            defer { requested = true }
            return !requested
        }
        if first { mailbox.yield(.shutdownRequested) }
    }

    /// Runs every service until all have ended (see the type's description).
    /// - Throws: the first error a service threw while the group ran (or while it was being stopped,
    ///   other than `CancellationError`); ``ServiceGroupError/serviceFinishedUnexpectedly(service:)``;
    ///   ``ServiceGroupError/alreadyRunning`` on a second call; `CancellationError` when the calling task
    ///   was cancelled (every service is cancelled then).
    public func run() async throws {
        let alreadyStarted = started.withLock { s in
            defer { s = true }
            return s
        }
        guard !alreadyStarted else { throw ServiceGroupError.alreadyRunning }
        let config = configuration
        let logger = config.logger
        let shutdownSignals = config.gracefulShutdownSignals
        let reloadSignals = config.onReload == nil ? [] : config.reloadSignals.filter { !shutdownSignals.contains($0) }
        let signals = await config.signalSource.trap(shutdownSignals + reloadSignals)
        defer { signals.cancel() }
        let tokens = config.services.map { _ in GracefulShutdownToken() }
        logger.info("service group started", [("services", config.services.map(\.name).joined(separator: ","))])

        let error: (any Error)? = await withTaskGroup(of: Void.self, returning: (any Error)?.self) { group in
            let mailbox = self.mailbox
            // The graceful-shutdown timeout is the state's timer: set when it says `.startTimeout`.
            let timeout = Alarm(clock: config.clock)
            group.addTask { await timeout.run { mailbox.yield(.timedOut) } }
            // Reloads run one at a time in a task of their own, so a slow reload never holds back a
            // shutdown signal; reload signals that arrive meanwhile are merged into one.
            let (reloads, reloadRequests) = AsyncStream.makeStream(of: UnixSignal.self, bufferingPolicy: .bufferingNewest(1))
            if let onReload = config.onReload {
                group.addTask {
                    for await signal in reloads { await onReload(signal) }
                }
            }
            group.addTask {
                for await signal in signals {
                    if reloadSignals.contains(signal) {
                        logger.notice("reload signal received", [("signal", "\(signal)")])
                        reloadRequests.yield(signal)
                    } else {
                        mailbox.yield(.signal(signal))
                    }
                }
            }
            for (index, entry) in config.services.enumerated() {
                group.addTask {
                    let error = await Self.run(entry, token: tokens[index])
                    mailbox.yield(.finished(index: index, error: error))
                }
            }

            var state = ServiceGroupState(services: config.services)
            if !state.isFinished {  // an empty group is done before any event
                for await event in events {
                    let actions = Self.handle(event, &state, config: config)
                    if state.isFinished { break }
                    perform(actions, on: &group, timeout: timeout, tokens: tokens, config: config)
                }
            }
            if !state.isFinished {
                // The task running the group was cancelled (the event stream ends then).
                perform(state.cancelled(), on: &group, timeout: timeout, tokens: tokens, config: config)
            }
            group.cancelAll()  // the signal listener and the timeout
            return state.error
        }
        logger.info("service group stopped")
        if let error { throw error }
    }

    /// Logs `event` and feeds it to `state`.
    private static func handle(
        _ event: Event, _ state: inout ServiceGroupState, config: ServiceGroupConfiguration
    ) -> [ServiceGroupState.Action] {
        let logger = config.logger
        switch event {
        case .finished(let index, let error):
            let name = config.services[index].name
            if let error, !(error is CancellationError) {
                logger.warning("service failed", [("service", name), ("error", "\(error)")])
            } else {
                logger.info("service finished", [("service", name)])
            }
            return state.serviceFinished(index, error: error)
        case .signal(let signal):
            logger.notice("shutdown signal received", [("signal", "\(signal)")])
            return state.shutdownSignal()
        case .shutdownRequested:
            logger.info("graceful shutdown requested")
            return state.shutdownRequested()
        case .timedOut:
            logger.warning("graceful shutdown timed out; cancelling the remaining services")
            return state.timedOut()
        }
    }

    private func perform(
        _ actions: [ServiceGroupState.Action], on group: inout TaskGroup<Void>, timeout: Alarm,
        tokens: [GracefulShutdownToken], config: ServiceGroupConfiguration
    ) {
        for action in actions {
            switch action {
            case .shutDown(let index):
                config.logger.info("stopping service", [("service", config.services[index].name)])
                tokens[index].trigger()
            case .startTimeout:
                guard let limit = config.gracefulShutdownTimeout else { continue }
                timeout.set(config.clock.now().advanced(by: limit))
            case .cancelAll:
                config.logger.notice("cancelling every service")
                group.cancelAll()
            }
        }
    }

    /// Runs one service with its graceful-shutdown token; returns what it threw, if anything.
    private static func run(_ entry: ServiceConfiguration, token: GracefulShutdownToken) async -> (any Error)? {
        do {
            try await GracefulShutdownToken.$current.withValue(token) {
                switch entry.gracefulShutdownBehavior {
                case .cancel: try await cancelWhenGracefulShutdown { try await entry.service.run() }
                case .notify: try await entry.service.run()
                }
            }
            return nil
        } catch {
            return error
        }
    }
}
