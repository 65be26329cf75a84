import BorderRouterService
import HTTP
import MeshCoP
import OpenThreadREST
package import Store
import TBRCore
package import TBRFoundation

// Border routers on other hosts (issue 21), reached through their otbr-agent's REST API: an admin adds
// them to the home and removes them (out of their structure first); the store remembers them.

extension CoreStructures {
    /// The longest id an admin may give a router on another host.
    package static let remoteIDLimit = 64

    /// Adds the otbr-agent whose REST API answers at `urlText` as border router `idText` (empty: `ba-` and
    /// the first 8 hex digits of its Border Agent ID), persisted; returns its id.
    /// - Throws: `InvalidArgument` for a URL that is not `http`/`https` with a host and no user information,
    ///   or a bad id; `Unavailable` when nothing answers there in time; `Failed` when something else than an
    ///   otbr-agent answers, or the agent is already a router tbrd knows (by id, URL or Border Agent ID).
    package func addRemoteBorderRouter(url urlText: String, id idText: String) async throws -> DeviceID {
        let url: HTTPURL
        do { url = try HTTPURL(urlText) } catch { throw ServiceError.invalid("\(Quoted(urlText)) cannot be a border router's address: \(error)") }
        if !idText.isEmpty { try Self.validateRemoteID(idText) }
        let identity: RESTAgent.Identity
        do { identity = try await service.identifyRESTAgent(at: url) } catch {
            switch error.kind {
            case .unreachable, .timedOut: throw CoreError(.unavailable, error.message)
            default: throw CoreError(.failed, error.message)
            }
        }
        let agentID = identity.borderAgentID
        if let same = await service.routerSummaries().first(where: { $0.borderAgentID == agentID }) {
            throw CoreError(
                .failed,
                "the otbr-agent at \(url) is already border router \(same.id) (\(same.address)): same Border Agent ID \(agentID)")
        }
        let idString = idText.isEmpty ? "ba-" + String(Hex.encode(agentID.bytes).prefix(8)) : idText
        guard let id = DeviceID(rawValue: idString) else {
            throw ServiceError.invalid("\(Quoted(idString)) cannot be a router id")
        }
        if let existing = await service.resolveRouter(idString), existing == id {
            throw CoreError(.failed, "there is already a border router \(id); give another id with --id")
        }
        do {
            try await store.addRemoteRouter(id, restURL: url.description, borderAgentID: Hex.encode(agentID.bytes))
        } catch {
            throw CoreError(.failed, "\(error)")
        }
        do {
            try await service.addRemoteRouter(id, url: url, borderAgentID: agentID)
        } catch {
            try? await store.forgetRouter(id)
            throw ServiceError.core(error)
        }
        logger.notice(
            "border router on another host added", [("router", id.rawValue), ("url", url.description), ("border_agent_id", "\(agentID)")])
        return id
    }

    /// Removes border router `text` (one on another host): out of its structure first, then forgotten by
    /// the service and the store. Returns its id.
    package func removeRemoteBorderRouter(_ text: String) async throws -> DeviceID {
        let id = try await routers.resolve(text)
        guard await service.transport(of: id) == .rest else {
            throw ServiceError.invalid(
                "\(id) is an otbr-agent on this host's bus: tbrd follows it as long as it runs and cannot remove it")
        }
        if let structure = try await structures.structure(containing: id) {
            try await removeBorderRouter(structure.name, id.rawValue)
        }
        try await service.removeRemoteRouter(id)
        do { try await store.forgetRouter(id) } catch StoreError.routerNotFound {} catch { throw ServiceError.core(error) }
        await routers.infoCache.invalidate(id)
        logger.notice("border router on another host removed", [("router", id.rawValue)])
        return id
    }

    /// The border routers on other hosts among `known` go (back) to the service, offline until polled: at
    /// start, those the store remembers; after a restore, those the backup held.
    package func serveRemoteRouters(_ known: [KnownRouter]) async {
        let served = Set(await service.deviceIDs())
        for router in known {
            guard let text = router.restURL, !served.contains(router.id) else { continue }
            do {
                let agentID = router.borderAgentID.flatMap { BorderAgentID($0) }
                try await service.addRemoteRouter(router.id, url: try HTTPURL(text), borderAgentID: agentID)
            } catch {
                logger.error("a border router on another host cannot be served", [("router", router.id.rawValue), ("error", "\(error)")])
            }
        }
    }

    /// An id an admin gives: 1 to 64 ASCII letters, digits, `-`, `_` or `.`, starting with a letter or digit.
    package static func validateRemoteID(_ text: String) throws {
        let allowed = text.utf8.allSatisfy { b in
            (0x30...0x39).contains(b) || (0x41...0x5A).contains(b) || (0x61...0x7A).contains(b) || b == 0x2D || b == 0x5F || b == 0x2E
        }
        guard !text.isEmpty, text.utf8.count <= remoteIDLimit, allowed, let first = text.utf8.first,
            (0x30...0x39).contains(first) || (0x41...0x5A).contains(first) || (0x61...0x7A).contains(first)
        else {
            throw ServiceError.invalid(
                "\(Quoted(text)) cannot be a router id: use 1 to \(remoteIDLimit) ASCII letters, digits, '-', '_' or '.', starting with a letter or digit")
        }
    }
}
