import DBus
import EpskcCommissioner
import MeshCoP
import TBRDBusAPI
import TBRFoundation

extension TbrdBackend {
    /// `Manager1.FetchNetworkCredentials`: tbrd fetches (and with `structure`, stores) the credentials.
    func fetchNetworkCredentials(key: EphemeralKey, from: String?, structure: String?, timeout: Duration) async throws
        -> FetchedNetwork
    {
        let seconds = UInt32(clamping: timeout.components.seconds)
        let reply = try await call(
            manager, TBRDBusAPI.Manager.fetchNetworkCredentials.name,
            [.string(key.digits), .string(from ?? ""), .string(structure ?? ""), .uint32(seconds)],
            doing: "fetching the credentials", timeout: timeout + .seconds(10))
        guard reply.count == 2, let tlvs = try? [UInt8](dbusValue: reply[0]),
            let dictionary = try? [String: String](dbusValue: reply[1]), let source = FetchSource(dictionary: dictionary)
        else { throw ControlError.failure("FetchNetworkCredentials sent an unexpected reply") }
        return FetchedNetwork(tlvs: tlvs, source: source)
    }
}

/// The network directory of structures (`io.tbrd.Structure1`: Networks, PreferredNetwork, AddNetwork,
/// RemoveNetwork, GetNetworkDataset).
extension TbrdBackend {
    private typealias StructureAPI = TBRDBusAPI.Structure

    /// `Networks` of structure `name`.
    func networks(of name: String) async throws -> [NetworkRow] {
        let object = structureObject(try await structurePath(name))
        do { return try await object.property(StructureAPI.Property.networks.rawValue, as: [NetworkRow].self) } catch {
            throw ErrorMapping.controlError(error, doing: "reading the networks of structure \(Quoted(name))")
        }
    }

    /// Writes `PreferredNetwork`.
    func setPreferredNetwork(_ xpan: String, of name: String) async throws {
        let object = structureObject(try await structurePath(name))
        do { try await object.setProperty(StructureAPI.Property.preferredNetwork.rawValue, .string(xpan)) } catch {
            throw ErrorMapping.controlError(error, doing: "choosing the preferred network of structure \(Quoted(name))")
        }
    }

    /// `AddNetwork(ay) → s`.
    func addNetwork(_ tlvs: [UInt8], to name: String) async throws -> String {
        let object = structureObject(try await structurePath(name))
        let reply = try await call(object, StructureAPI.addNetwork.name, [tlvs.dbusValue], doing: "adding the network to \(Quoted(name))")
        guard case .string(let xpan)? = reply.first else { throw ControlError.failure("AddNetwork sent an unexpected reply") }
        return xpan
    }

    /// `RemoveNetwork(s)`.
    func removeNetwork(_ xpan: String, from name: String) async throws {
        let object = structureObject(try await structurePath(name))
        _ = try await call(object, StructureAPI.removeNetwork.name, [.string(xpan)], doing: "forgetting network \(xpan) of \(Quoted(name))")
    }

    /// `GetNetworkDataset(s) → ay`.
    func networkDataset(_ xpan: String, of name: String) async throws -> [UInt8] {
        let object = structureObject(try await structurePath(name))
        let reply = try await call(
            object, StructureAPI.getNetworkDataset.name, [.string(xpan)], doing: "reading the credentials of network \(xpan)")
        guard let first = reply.first, let tlvs = try? [UInt8](dbusValue: first) else {
            throw ControlError.failure("GetNetworkDataset sent an unexpected reply")
        }
        return tlvs
    }
}
