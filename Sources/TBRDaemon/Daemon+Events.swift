import BorderRouterService
import DBus
import TBRDBusAPI
import DeviceModel

// ePSKc events: already journalled by the service's event sink when they arrive here; signalled from
// the router's object with their sequence numbers.

extension Daemon {
    func forwardEpskcEvents(_ service: BorderRouterService) async {
        for await event in service.epskcEvents(bufferLimit: 1024) {
            signal(event)
        }
    }

    func signal(_ event: EpskcEvent) {
        guard let connection else { return }
        let id = event.deviceID
        let path = Self.routerPath(id)
        let sequence = DBusValue.uint64(event.sequenceNumber ?? 0)
        switch event {
        case .activated(let e):
            try? connection.emit(path: path, interface: Self.routerInterfaceName, member: TBRDBusAPI.epskcActivated, arguments: [
                sequence, .string(id.rawValue), .uint16(UInt16(clamping: e.validDurationSeconds)),
                .int64(Self.milliseconds(e.activatedAt)),
            ])
            logger.info("ephemeral key activated", [("router", id.rawValue), ("sequence", "\(event.sequenceNumber ?? 0)"),
                                             ("seconds", "\(e.validDurationSeconds)")])
        case .deactivated(let e):
            try? connection.emit(path: path, interface: Self.routerInterfaceName, member: TBRDBusAPI.epskcDeactivated, arguments: [
                sequence, .string(id.rawValue), .string(e.reason.rawValue), .string(e.detail?.rawValue ?? ""),
                .int64(Self.milliseconds(e.activatedAt)), .int64(Self.milliseconds(e.deactivatedAt)),
            ])
            logger.info("ephemeral key ended", [("router", id.rawValue), ("sequence", "\(event.sequenceNumber ?? 0)"),
                                               ("reason", e.reason.rawValue), ("detail", e.detail?.rawValue ?? "")])
        }
    }

    static func milliseconds(_ t: WallTime) -> Int64 { Int64((t.secondsSinceEpoch * 1000).rounded()) }
    static func milliseconds(_ seconds: Double?) -> Int64 { seconds.map { Int64(($0 * 1000).rounded()) } ?? 0 }
}
