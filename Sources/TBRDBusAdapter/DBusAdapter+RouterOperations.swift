import TBRCoreServices
import BorderRouterService
import DBus
import TBRDBusAPI
import TBRFoundation

// A router's D-Bus members' own reading of their arguments, before the core's calls (CoreRouters).

extension DBusAdapter {
    /// `JoinNetwork`'s options read (the D-Bus adapter), then ``joinNetwork(_:tlvs:scope:)``.
    func joinNetwork(_ id: DeviceID, tlvs: [UInt8], options: [String: DBusValue]) async throws -> JoinNetworkReply {
        let thisRouterOnly = TBRDBusAPI.BorderRouter.thisRouterOnlyOption
        var scope = ThreadNetworkManagementTrait.JoinScope.wholeNetwork
        if let only = options[thisRouterOnly] {
            guard case .bool(let b) = only else { throw DaemonError.invalid("the option \(thisRouterOnly) must be a boolean") }
            if b { scope = .thisRouterOnly }
        }
        for key in options.keys where key != thisRouterOnly {
            throw DaemonError.invalid("unknown JoinNetwork option \(Quoted(key)) (known: \(thisRouterOnly))")
        }
        let response = try await routers.joinNetwork(id, tlvs: tlvs, scope: scope)
        let delay = response.migrationDelay.map { $0.milliseconds() } ?? 0
        return JoinNetworkReply(status: OperationStatus(response.status), delayMs: delay, message: response.message ?? "")
    }
}
