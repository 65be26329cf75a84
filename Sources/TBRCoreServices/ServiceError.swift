package import BorderRouterService
import Store
package import TBRCore

/// The core services' errors are the core's one error (``TBRCore/CoreError``): what the device model,
/// the store and a cancelled call throw becomes a condition and a sentence here, once. An adapter adds
/// only its own transport's errors (tbrd's `DaemonError` the bus's) before it spells the condition.
package enum ServiceError {
    package static func invalid(_ message: String) -> CoreError { CoreError(.invalidArgument, message) }
    package static func missing(_ message: String) -> CoreError { CoreError(.notFound, message) }

    /// The condition of a device-model error code.
    package static func condition(_ code: HomeError.Code) -> CoreError.Condition {
        switch code {
        case .notFound: .notFound
        case .invalidArgument: .invalidArgument
        case .busy: .busy
        case .notSupported: .notSupported
        case .unavailable: .unavailable
        case .permissionDenied: .permissionDenied
        case .invalidState, .failed: .failed
        }
    }

    /// Any error as the core's: its own as it is; the device model's and the store's by their codes; a
    /// cancelled call as `unavailable` (tbrd is stopping); anything else as `failed` with its description.
    package static func core(_ error: any Error) -> CoreError {
        switch error {
        case let e as CoreError: return e
        case let e as HomeError: return CoreError(condition(e.code), e.message)
        case let e as StoreError: return core(PersistentStructureStore.homeError(e))
        case is CancellationError: return CoreError(.unavailable, "tbrd is stopping")
        case let e as any CustomStringConvertible: return CoreError(.failed, e.description)
        default: return CoreError(.failed, "tbrd failed (\(type(of: error)))")
        }
    }
}
