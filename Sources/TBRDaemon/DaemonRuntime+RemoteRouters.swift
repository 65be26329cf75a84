import BorderRouterService
import HTTP
import MeshCoP
import Store
import TBRFoundation

// At start: the border routers on other hosts the store remembers (CoreStructures adds and removes them).

extension DaemonRuntime {
    /// Routers on other hosts the store remembers go back to the service (offline until polled).
    func restoreRemoteRouters(_ known: [KnownRouter]) async {
        for router in known {
            guard let text = router.restURL else { continue }
            let id = router.id
            do {
                let agentID = router.borderAgentID.flatMap { BorderAgentID($0) }
                try await service.addRemoteRouter(id, url: try HTTPURL(text), borderAgentID: agentID)
            } catch {
                logger.error("a border router on another host cannot be restored", [("router", id.rawValue), ("error", "\(error)")])
            }
        }
    }
}
