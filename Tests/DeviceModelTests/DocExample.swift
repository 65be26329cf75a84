import TBRFoundation

// The example of docs/device-model.md, compiled and run by DocExampleTests. Keep the two identical:
// DocExampleTests fails when the code between the markers and the doc's block differ.

// BEGIN doc example
import BorderRouterService
import DBus
import DeviceModel
import MeshCoP

/// Lets a commissioner into the Thread network of border router `id` with an ePSKc, and returns why the
/// key ended. `handOver` gives the key to the commissioner (shows it to a person, sends it to an app).
func shareNetwork(
    connection: Connection, router id: DeviceID, handOver: (EphemeralKey) async throws -> Void
) async throws -> ThreadNetworkManagementTrait.EpskcModeDeactivationReason? {
    let service = BorderRouterService(connection: connection)
    return try await service.withRunning { service in
        let device = try await service.home.device(id: id)
        guard let br = device.type(BorderRouterDevice.self),
            let caps = br.traits(ThreadNetworkCapabilitiesTrait.self),
            let mgmt = br.traits(ThreadNetworkManagementTrait.self),
            mgmt.supports(.activateEpskcMode), try await caps.epskcSupported.read()
        else { return nil }
        let info = try await br.traits(BasicInformationTrait.self)!.read()
        print("\(info.vendorName) \(info.productName), otbr-agent \(info.softwareVersion)")
        if let network = try await mgmt.networkInfo.read() { print("network \(network.networkName)") }

        let ends = mgmt.epskcModeDeactivatedEvent.stream()  // subscribe before activating
        let r = await mgmt.activateEpskcMode(.init(requestedDurationSeconds: 300))
        guard r.status == .success, let key = r.epskc else {
            print("no key: \(r.status) \(r.message ?? "")")
            return nil
        }
        try await handOver(key)
        for await end in ends where end.sessionID == r.sessionID { return end.reason }
        return nil
    }
}
// END doc example
