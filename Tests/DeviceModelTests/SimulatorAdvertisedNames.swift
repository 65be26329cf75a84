import TBRFoundation
import BorderRouterService
import DBus
import DeviceModel
import OpenThreadBR
import RouterFleet
import InternetAccessPolicy

/// The names a simulated router would advertise over mDNS, read from otbr-sim's control interface
/// (`io.tbrd.Simulator1` at `/io/tbrd/Simulator/<if>`, `VendorName` and `ProductName`): the test stand-in
/// behind the service's ``AdvertisedNamesSource`` seam. Production code never uses it.
struct SimulatorAdvertisedNames: AdvertisedNamesSource {
    let connection: Connection

    func advertisedNames(of id: DeviceID) async -> AdvertisedNames? {
        guard let interfaceName = try? ThreadInterfaceName(id.rawValue), let path = try? ObjectPath("/io/tbrd/Simulator/" + interfaceName.rawValue) else { return nil }
        let control = RemoteObject(
            connection: connection, destination: interfaceName.busName, path: path, interface: "io.tbrd.Simulator1")
        let vendor = try? await control.property("VendorName", as: String.self)
        let product = try? await control.property("ProductName", as: String.self)
        guard vendor != nil || product != nil else { return nil }
        return AdvertisedNames(vendorName: vendor, productName: product)
    }
}
