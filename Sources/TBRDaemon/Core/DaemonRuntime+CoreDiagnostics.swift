import BorderRouterService
import TBRCore
import TBRDocuments

// The core's diagnostics (TBRCore's DiagnosticsCore): the mesh from CoreRouters, the doctor from tbrd's
// view of the host and the network (Doctor/).

extension DaemonRuntime: DiagnosticsCore {
    func mesh(_ router: String) async throws -> MeshView { try await routers.mesh(router) }

    func meshPicture(_ router: String) async throws -> [UInt8] { try await routers.meshPicture(router) }

    /// The doctor's checks of `router` and this host, as `tbrctl --json doctor` shows them.
    func doctor(_ router: String) async throws -> DoctorReport {
        let id = try await routers.resolve(router)
        return DoctorReport(router: id.rawValue, checks: try await doctorChecks(id.rawValue))
    }
}
