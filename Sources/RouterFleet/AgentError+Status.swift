package import TBRFoundation
package import DeviceModel
package import OpenThreadBR

/// How otbr-agent's errors become the device model's statuses and errors.
extension AgentError {
    /// The `activateEpskcMode` status: `Busy` → busy; `NotCapable` (feature off), `NotImplemented` or a
    /// missing method → notSupported; `InvalidState` → invalidState; `InvalidArgs`/`Parse` or a request the
    /// client refused → invalidArgument; anything else → failed.
    package var activationStatus: ThreadNetworkManagementTrait.ActivateEpskcModeStatus {
        switch homeCode {
        case .busy: .busy
        case .notSupported: .notSupported
        case .invalidState: .invalidState
        case .invalidArgument: .invalidArgument
        default: .failed
        }
    }

    /// The `joinNetwork` status, mapped as ``activationStatus``.
    package var networkStatus: ThreadNetworkManagementTrait.NetworkOperationStatus {
        switch homeCode {
        case .busy: .busy
        case .notSupported: .notSupported
        case .invalidState: .invalidState
        case .invalidArgument: .invalidArgument
        default: .failed
        }
    }

    /// The device model's error code for this failure.
    package var homeCode: HomeError.Code {
        switch cause {
        case .openThread(let e):
            switch e {
            case .busy: .busy
            case .notCapable, .notImplemented: .notSupported
            case .invalidState: .invalidState
            case .invalidArgs, .parse: .invalidArgument
            default: .failed
            }
        case .notSupported: .notSupported
        case .invalidRequest: .invalidArgument
        case .notRunning, .agentExited, .timedOut, .disconnected: .unavailable
        case .accessDenied: .permissionDenied
        case .unknownOpenThreadError, .cancelled, .unexpectedReply, .bus: .failed
        }
    }

    /// This failure as a device-model error whose sentence names the command and the router.
    package func homeError(_ command: String, on device: DeviceID) -> HomeError {
        HomeError(homeCode, "\(command) on \(device) failed: \(reason)", underlying: description)
    }
}
