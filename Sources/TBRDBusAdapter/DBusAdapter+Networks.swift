import BorderRouterService
import BorderAgentDiscovery
import DBus
import EpskcCommissioner
import MeshCoP
import Store
import TBRDBusAPI
import TBRDocuments
import TBRFoundation
import TBRCore

// The network directory of each structure (issue 31): Structure1.Networks, PreferredNetwork, AddNetwork,
// RemoveNetwork, GetNetworkDataset, and the networks FetchNetworkCredentials stores. Entries come from
// the structure's routers' active datasets, from fetches and additions, and from other border agents'
// _meshcop._udp records; the credentials are kept in the state database (0600) and given to admins only.

extension DBusAdapter {
    nonisolated func networkMethods(_ id: StructureID) -> [Method] {
        typealias API = TBRDBusAPI.Structure
        return [
            method(API.addNetwork) { [self] call in [.string(try await self.structureService.addNetwork(id, tlvs: try call.argument(0)))] },
            method(API.removeNetwork) { [self] call in
                try await self.structureService.removeNetwork(id, try call.argument(0))
                return []
            },
            method(API.getNetworkDataset) { [self] call in [try await self.structureService.networkDataset(id, try call.argument(0)).dbusValue] },
        ]
    }
}
