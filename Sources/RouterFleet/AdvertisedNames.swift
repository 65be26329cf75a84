public import TBRFoundation
import DeviceModel

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

/// Where a service learns a router's advertised names: the `_meshcop._udp` TXT record, read by an mDNS
/// browser (tbrd's `AdvertisedRouterNames`, fed by its Border Agent browser). Without one the names come
/// from the configuration or stay empty.
public protocol AdvertisedNamesSource: Sendable {
    /// The names router `id` advertises, or nil when unknown (tbrd matches routers to their `_meshcop._udp`
    /// services by Border Agent ID, on this host or another).
    func advertisedNames(of id: DeviceID) async -> AdvertisedNames?
}

/// No mDNS browser: routers' advertised names stay unknown (the configuration's names, if any, are
/// shown). The default source of ``BorderRouterService``.
public struct NoAdvertisedNames: AdvertisedNamesSource {
    /// The source that knows no names.
    public init() {}

    /// Nil: no name is known.
    public func advertisedNames(of id: DeviceID) async -> AdvertisedNames? { nil }
}
