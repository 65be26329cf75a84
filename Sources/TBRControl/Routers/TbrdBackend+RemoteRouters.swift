import DBus
import TBRDBusAPI
import TBRFoundation

/// A border router on another host as `tbrctl router add` prints it (`--json`: these three fields).
struct AddedRemoteRouter: Encodable, Sendable {
    /// tbrd's id of the router.
    var id: String
    /// The agent's REST API URL.
    var address: String
    /// Its Border Agent ID in hex.
    var borderAgentId: String
}

/// Border routers on other hosts through tbrd (`io.tbrd.Manager1`).
extension TbrdBackend {
    private typealias Manager = TBRDBusAPI.Manager
    private typealias RouterProperty = TBRDBusAPI.BorderRouter.Property

    /// `AddRemoteBorderRouter(s url, s id) → o`, then the new router's id, address and Border Agent ID.
    func addRemoteRouter(url: String, id: String) async throws -> AddedRemoteRouter {
        // tbrd asks the agent twice at most, each bounded by its rest-timeout (5 s by default).
        let reply = try await call(
            manager, Manager.addRemoteBorderRouter.name, [.string(url), .string(id)], doing: "adding the border router at \(url)",
            timeout: .seconds(60))
        guard case .objectPath(let path)? = reply.first else {
            throw ControlError.failure("AddRemoteBorderRouter did not return an object path")
        }
        let values: [String: DBusValue]
        do { values = try await sendGetAll(routerObject(path)) } catch { throw Self.mapped(error, doing: "reading the border router just added") }
        func text(_ p: RouterProperty) -> String { if case .string(let s)? = values[p.rawValue] { s } else { "" } }
        return AddedRemoteRouter(id: text(.id), address: text(.address), borderAgentId: text(.borderAgentId))
    }

    /// `RemoveRemoteBorderRouter(s router)`, the router given as its id.
    func removeRemoteRouter(_ router: RouterRef) async throws {
        _ = try await call(
            manager, Manager.removeRemoteBorderRouter.name, [.string(router.id)], doing: "removing border router \(router.id)")
    }
}
