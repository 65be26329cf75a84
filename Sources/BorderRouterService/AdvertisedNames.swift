public import DBus
public import OpenThreadBR

/// The vendor and product names a router advertises (the `vn` and `mn` keys of its `_meshcop._udp`
/// TXT record). otbr-agent has no D-Bus property for them.
public struct AdvertisedNames: Hashable, Sendable {
    /// `vn`.
    public var vendorName: String?
    /// `mn`.
    public var productName: String?

    /// Names as given.
    public init(vendorName: String?, productName: String?) {
        self.vendorName = vendorName
        self.productName = productName
    }
}

/// Where a service learns a router's advertised names. The mDNS browser (a later part of tbrd) will
/// read the TXT record; ``SimulatorAdvertisedNames`` reads otbr-sim's control interface, which stands in
/// for mDNS in tests and the demo.
public protocol AdvertisedNamesSource: Sendable {
    /// The names the router on `interfaceName` advertises, or nil when unknown.
    func advertisedNames(of interfaceName: ThreadInterfaceName) async -> AdvertisedNames?
}

/// Reads the names otbr-sim would advertise from its control interface (`io.tbrd.Simulator1` at
/// `/io/tbrd/Simulator/<if>`, properties `VendorName` and `ProductName`).
public struct SimulatorAdvertisedNames: AdvertisedNamesSource {
    /// The connection the properties are read through.
    public let connection: Connection

    /// A source reading through `connection`.
    public init(connection: Connection) { self.connection = connection }

    public func advertisedNames(of interfaceName: ThreadInterfaceName) async -> AdvertisedNames? {
        guard let path = try? ObjectPath("/io/tbrd/Simulator/" + interfaceName.rawValue) else { return nil }
        let control = RemoteObject(
            connection: connection, destination: interfaceName.busName, path: path, interface: "io.tbrd.Simulator1")
        let vendor = try? await control.property("VendorName", as: String.self)
        let product = try? await control.property("ProductName", as: String.self)
        guard vendor != nil || product != nil else { return nil }
        return AdvertisedNames(vendorName: vendor, productName: product)
    }
}
