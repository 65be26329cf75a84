/// The decisions of a ``ServiceGroup``, without I/O: each event returns what the group must do.
///
/// Phases: `running` → (a shutdown signal or request, or a service ending with
/// `.gracefullyShutdownGroup`) → `shuttingDown`, where services are asked to stop one at a time in
/// reverse start order → (the same signal again, the timeout, or a service ending with `.cancelGroup`)
/// → `cancelling`, where every task is cancelled. The group is done when no service runs.
struct ServiceGroupState {
    enum Phase: Equatable {
        case running, shuttingDown, cancelling
    }

    enum Action: Equatable {
        /// Trigger the graceful shutdown of service `index` (cancelling it if it is configured so).
        case shutDown(index: Int)
        /// Start the graceful-shutdown timeout.
        case startTimeout
        /// Cancel every task of the group.
        case cancelAll
    }

    private let services: [ServiceConfiguration]
    private(set) var running: Set<Int>
    private(set) var phase = Phase.running
    /// The error ``ServiceGroup/run()`` throws: the first service failure, or why the group ended.
    private(set) var error: (any Error)?
    private var order: [Int] = []
    private var current: Int?

    init(services: [ServiceConfiguration]) {
        self.services = services
        self.running = Set(services.indices)
    }

    /// Whether every service has ended.
    var isFinished: Bool { running.isEmpty }

    /// Service `index` returned (`error` nil) or threw.
    mutating func serviceFinished(_ index: Int, error serviceError: (any Error)?) -> [Action] {
        running.remove(index)
        switch phase {
        case .running:
            let service = services[index]
            let behavior = serviceError == nil ? service.successTerminationBehavior : service.failureTerminationBehavior
            switch behavior {
            case .ignore:
                return []
            case .cancelGroup:
                record(serviceError ?? ServiceGroupError.serviceFinishedUnexpectedly(service: service.name))
                return cancelAll()
            case .gracefullyShutdownGroup:
                if let serviceError { record(serviceError) }
                return beginGracefulShutdown()
            }
        case .shuttingDown, .cancelling:
            // A service asked to stop returns or throws CancellationError; anything else is reported.
            if let serviceError, !(serviceError is CancellationError) { record(serviceError) }
            return phase == .shuttingDown ? advance() : []
        }
    }

    /// A shutdown signal arrived: graceful at first, cancellation when it comes again.
    mutating func shutdownSignal() -> [Action] {
        switch phase {
        case .running: beginGracefulShutdown()
        case .shuttingDown: cancelAll()
        case .cancelling: []
        }
    }

    /// ``ServiceGroup/triggerGracefulShutdown()`` was called.
    mutating func shutdownRequested() -> [Action] {
        phase == .running ? beginGracefulShutdown() : []
    }

    /// The graceful-shutdown timeout expired.
    mutating func timedOut() -> [Action] {
        phase == .shuttingDown ? cancelAll() : []
    }

    /// The task running the group was cancelled.
    mutating func cancelled() -> [Action] {
        if error == nil, !isFinished { error = CancellationError() }
        return phase == .cancelling ? [] : cancelAll()
    }

    private mutating func beginGracefulShutdown() -> [Action] {
        phase = .shuttingDown
        order = running.sorted(by: >)
        return [.startTimeout] + advance()
    }

    /// Asks the next service in reverse start order to stop, once the current one has ended.
    private mutating func advance() -> [Action] {
        if let current, running.contains(current) { return [] }
        current = nil
        while !order.isEmpty {
            let next = order.removeFirst()
            guard running.contains(next) else { continue }
            current = next
            return [.shutDown(index: next)]
        }
        return []
    }

    private mutating func cancelAll() -> [Action] {
        phase = .cancelling
        return [.cancelAll]
    }

    private mutating func record(_ error: any Error) {
        if self.error == nil { self.error = error }
    }
}
