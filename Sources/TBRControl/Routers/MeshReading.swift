import BorderRouterService
import DBus
import MeshCoP
import OpenThreadBR
import TBRDBusAPI
import TBRFoundation

extension TbrdBackend {
    /// `GetMeshTopology` of `router`, decoded.
    func meshTopology(of router: RouterRef) async throws -> MeshTopology {
        let member = API.getMeshTopology.name
        let reply: [DBusValue]
        do {
            reply = try await onRouter(router) { try await send($0, member) }
        } catch {
            throw Self.mapped(error, doing: "\(member) on \(router.id)")
        }
        do {
            return try MeshTopology(try MeshTopologyReply(arguments: reply))
        } catch {
            throw ControlError.failure("\(member) on \(router.id) failed: tbrd's reply does not decode: \(error)")
        }
    }
}

extension DirectBackend {
    /// The agent's mesh through the in-process service, as tbrd reads it (within its 5 s).
    func meshTopology(of router: RouterRef) async throws -> MeshTopology {
        do { return try await service.meshTopology(of: try deviceID(router)) } catch {
            throw ErrorMapping.controlError(error, doing: "reading the mesh of \(router.id)")
        }
    }
}

/// What a `GetMeshTopology` reply does not hold.
struct MeshReplyError: Error, CustomStringConvertible {
    var description: String
}

extension MeshTopology {
    /// The topology tbrd sent; -1 and empty strings are "unknown".
    /// - Throws: ``MeshReplyError`` for a field that is not what the contract says.
    init(_ reply: MeshTopologyReply) throws {
        func address(_ text: String, _ what: String) throws -> ExtendedAddress {
            guard let a = ExtendedAddress(text) else { throw MeshReplyError(description: "\(what) '\(text)' is not 16 hex digits") }
            return a
        }
        func prefix(_ text: String) throws -> IPv6Prefix {
            guard let p = IPv6Prefix(text) else { throw MeshReplyError(description: "'\(text)' is not an IPv6 prefix") }
            return p
        }
        func preference(_ text: String) throws -> RoutePreference {
            guard let p = RoutePreference(rawValue: text) else { throw MeshReplyError(description: "unknown preference '\(text)'") }
            return p
        }
        func small(_ value: Int32) -> UInt8? { (0...255).contains(value) ? UInt8(value) : nil }
        func count(_ value: Int64) -> UInt32? { (0...Int64(UInt32.max)).contains(value) ? UInt32(value) : nil }
        let prefixes = try reply.onMeshPrefixes.map { row in
            OnMeshPrefix(
                prefix: try prefix(row.prefix), rloc16: row.rloc16, preference: try preference(row.preference), flagNames: Set(row.flags))
        }
        let routes = try reply.externalRoutes.map { row in
            ExternalRoute(
                prefix: try prefix(row.prefix), rloc16: row.rloc16, preference: try preference(row.preference), stable: row.stable,
                nextHopIsSelf: false)
        }
        let nodes = try reply.nodes.map { row in
            guard let role = MeshNode.Role(rawValue: row.role), let source = MeshNode.Source(rawValue: row.source) else {
                throw MeshReplyError(description: "node \(row.extAddress) has role '\(row.role)' and source '\(row.source)'")
            }
            return MeshNode(
                extAddress: try address(row.extAddress, "a node's address"), rloc16: row.rloc16, role: role, source: source,
                linkQualityIn: small(row.linkQualityIn), linkQualityOut: small(row.linkQualityOut), age: count(row.age),
                mode: row.modeKnown ? MeshNode.Mode(rxOnWhenIdle: row.rxOnWhenIdle, fullThreadDevice: row.fullThreadDevice) : nil,
                timeout: count(row.timeout), parent: row.parent.isEmpty ? nil : try address(row.parent, "a parent's address"),
                links: row.links.map {
                    MeshLink(rloc16: $0.rloc16, linkQualityIn: small($0.linkQualityIn), linkQualityOut: small($0.linkQualityOut))
                })
        }
        self.init(
            partitionID: reply.partitionId < 0 ? nil : UInt32(truncatingIfNeeded: reply.partitionId),
            leaderRouterID: small(reply.leaderRouterId), onMeshPrefixes: prefixes, externalRoutes: routes, nodes: nodes,
            horizon: reply.horizon.isEmpty ? nil : reply.horizon)
    }
}
