import BorderRouterService
import DBus
import TBRDBusAPI

// ePSKc events: already journalled by the service's event sink when they arrive here; signalled from
// the router's object with their sequence numbers.

extension DBusAdapter {
    func forwardEpskcEvents() async {
        for await event in service.epskcEvents(bufferLimit: 1024) {
            signal(event)
        }
    }

    func signal(_ event: EpskcEvent) {
        let id = event.deviceID
        // Every event reaching here was journalled; one without a sequence would be dropped by watchers.
        guard let sequence = event.sequenceNumber, sequence > 0 else {
            logger.error("an ephemeral-key event without a journal sequence is not signalled", [("router", id.rawValue)])
            return
        }
        let contract: SignalContract
        let arguments: [DBusValue]
        switch event {
        case .activated(let e):
            contract = TBRDBusAPI.BorderRouter.epskcModeActivated
            arguments = EpskcActivatedSignal(
                sequence: sequence, router: id.rawValue, validSeconds: UInt16(clamping: e.validDurationSeconds),
                activatedAt: Self.milliseconds(e.activatedAt)
            ).arguments
            logger.info("ephemeral key activated", [("router", id.rawValue), ("sequence", "\(sequence)"), ("seconds", "\(e.validDurationSeconds)")])
        case .deactivated(let e):
            contract = TBRDBusAPI.BorderRouter.epskcModeDeactivated
            arguments = EpskcDeactivatedSignal(
                sequence: sequence, router: id.rawValue, reason: e.reason.rawValue, detail: e.detail?.rawValue ?? "",
                activatedAt: Self.milliseconds(e.activatedAt), deactivatedAt: Self.milliseconds(e.deactivatedAt)
            ).arguments
            logger.info("ephemeral key ended", [("router", id.rawValue), ("sequence", "\(sequence)"), ("reason", e.reason.rawValue), ("detail", e.detail?.rawValue ?? "")])
        }
        do {
            try connection.emit(path: Self.routerPath(id), interface: TBRDBusAPI.BorderRouter.interface, member: contract.name, arguments: arguments)
        } catch {
            logger.warning("could not signal an ephemeral-key event", [("router", id.rawValue), ("sequence", "\(sequence)"), ("error", "\(error)")])
        }
    }

    static func milliseconds(_ t: WallTime) -> Int64 { t.milliseconds }
    static func milliseconds(_ seconds: Double?) -> Int64 { seconds.map { Int64(($0 * 1000).rounded()) } ?? 0 }
}
