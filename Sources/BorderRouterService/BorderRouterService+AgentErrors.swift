public import TBRFoundation
public import DeviceModel
public import OpenThreadBR
import RouterFleet

extension BorderRouterService {
    /// The `activateEpskcMode` status of an otbr-agent error (for clients that call the agent directly,
    /// such as tbrctl without tbrd): `Busy` → busy, `NotCapable`/`NotImplemented`/missing method →
    /// notSupported, `InvalidState` → invalidState, `InvalidArgs`/`Parse` → invalidArgument, else failed.
    public static func activationStatus(for error: AgentError) -> ThreadNetworkManagementTrait.ActivateEpskcModeStatus {
        error.activationStatus
    }

    /// The `joinNetwork` status of an otbr-agent error, mapped as ``activationStatus(for:)``.
    public static func networkStatus(for error: AgentError) -> ThreadNetworkManagementTrait.NetworkOperationStatus {
        error.networkStatus
    }

    /// An otbr-agent error as a device-model error naming `command` and `device`.
    public static func homeError(for error: AgentError, command: String, device: DeviceID) -> HomeError {
        error.homeError(command, on: device)
    }
}
