internal import CDBus

// Routing of every incoming message, called by the libdbus filter on the connection's queue (the
// actor's executor, so the filter enters the actor with `assumeIsolated`).

extension Connection {
    static let localInterface = InterfaceName(unchecked: "org.freedesktop.DBus.Local")

    func receive(_ decoded: Result<Message, DBusValueError>) -> DBusHandlerResult {
        let message: Message
        switch decoded {
        case .success(let m): message = m
        case .failure(let error):
            logger.warning("dropping a message that could not be decoded", [("error", "\(error)")])
            return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
        }
        switch message.kind {
        case .methodReturn, .error:
            let result = message.replyOutcome.mapError { $0 as any Error }
            return calls.complete(replySerial: message.replySerial, with: result)
                ? DBUS_HANDLER_RESULT_HANDLED : DBUS_HANDLER_RESULT_NOT_YET_HANDLED
        case .signal:
            if message.interface == Connection.localInterface, message.member?.rawValue == "Disconnected" {
                logger.notice("disconnected from the bus")
                shutDown(reason: .busClosedConnection)
                // Not inline: this runs inside dbus_connection_dispatch.
                handle.scheduleClose()
                return DBUS_HANDLER_RESULT_HANDLED
            }
            deliverSignal(message)
            return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
        case .methodCall:
            return dispatchMethodCall(message) ? DBUS_HANDLER_RESULT_HANDLED : DBUS_HANDLER_RESULT_NOT_YET_HANDLED
        }
    }
}
