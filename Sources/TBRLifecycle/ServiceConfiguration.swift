/// What a ``ServiceGroup`` does when one of its services returns or throws while the group is running.
public enum TerminationBehavior: Hashable, Sendable {
    /// Cancel every other service at once. A service that returned makes ``ServiceGroup/run()`` throw
    /// ``ServiceGroupError/serviceFinishedUnexpectedly(service:)``; one that threw makes it rethrow.
    case cancelGroup
    /// Shut the other services down gracefully (see ``ServiceGroup``). A service that returned ends the
    /// group without error; one that threw makes ``ServiceGroup/run()`` rethrow.
    case gracefullyShutdownGroup
    /// Carry on without it (it is logged).
    case ignore
}

/// What a graceful shutdown of the group does to one service.
public enum GracefulShutdownBehavior: Hashable, Sendable {
    /// Its graceful-shutdown handlers run, then its task is cancelled at once: for services that run
    /// until cancelled.
    case cancel
    /// Only its graceful-shutdown handlers run (``gracefulShutdown()``,
    /// ``withGracefulShutdownHandler(operation:onGracefulShutdown:)``) and the group waits for it to
    /// return, for at most the group's ``ServiceGroupConfiguration/gracefulShutdownTimeout``: for services
    /// that finish their work first.
    case notify
}

/// One service of a group and how the group treats it.
public struct ServiceConfiguration: Sendable {
    /// The service.
    public var service: any Service
    /// Its name in logs and errors (by default its type's name).
    public var name: String
    /// What happens when it returns while the group runs.
    public var successTerminationBehavior: TerminationBehavior
    /// What happens when it throws while the group runs.
    public var failureTerminationBehavior: TerminationBehavior
    /// What a graceful shutdown does to it.
    public var gracefulShutdownBehavior: GracefulShutdownBehavior

    /// A service that ends the group if it returns or throws, and is cancelled on graceful shutdown.
    public init(
        _ service: any Service, name: String? = nil, successTerminationBehavior: TerminationBehavior = .cancelGroup,
        failureTerminationBehavior: TerminationBehavior = .cancelGroup,
        gracefulShutdownBehavior: GracefulShutdownBehavior = .cancel
    ) {
        self.service = service
        self.name = name ?? String(describing: type(of: service))
        self.successTerminationBehavior = successTerminationBehavior
        self.failureTerminationBehavior = failureTerminationBehavior
        self.gracefulShutdownBehavior = gracefulShutdownBehavior
    }
}
