/// Why a ``ServiceGroup`` stopped, when no service error explains it.
public enum ServiceGroupError: Error, Hashable, Sendable, CustomStringConvertible {
    /// ``ServiceGroup/run()`` was called a second time.
    case alreadyRunning
    /// A service returned while the group was running, and its behaviour says that ends the group.
    case serviceFinishedUnexpectedly(service: String)

    /// The error as one sentence.
    public var description: String {
        switch self {
        case .alreadyRunning: "the service group is already running (run() can be called once)"
        case .serviceFinishedUnexpectedly(let service): "service \(service) finished unexpectedly"
        }
    }
}
