import TBRFoundation
import BorderRouterService

/// The names each router advertises in its `_meshcop._udp` TXT record (`vn`, `mn`), as tbrd's mDNS
/// follower last matched them: the service's ``BorderRouterService/AdvertisedNamesSource``.
actor AdvertisedRouterNames: AdvertisedNamesSource {
    private var names: [DeviceID: AdvertisedNames] = [:]

    /// Router `id` advertises `advertised` now.
    func set(_ advertised: AdvertisedNames, for id: DeviceID) { names[id] = advertised }

    func advertisedNames(of id: DeviceID) async -> AdvertisedNames? { names[id] }
}
