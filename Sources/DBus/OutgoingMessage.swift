internal import CDBus

/// Owns one libdbus message being built for sending; released in `deinit`. Built, marshalled and sent on
/// the queue of the ``Connection`` that sends it, like every other libdbus call (or on the one thread of
/// a ``BlockingConnection``).
final class OutgoingMessage {
    let raw: OpaquePointer

    private init(raw: OpaquePointer) { self.raw = raw }

    deinit { LibDBus.c.message_unref(raw) }

    /// A method call.
    static func methodCall(
        destination: BusName?, path: ObjectPath, interface: InterfaceName?, member: MemberName,
        body: [DBusValue], noReply: Bool = false
    ) throws(DBusError) -> OutgoingMessage {
        guard let raw = LibDBus.c.message_new_method_call(destination?.rawValue, path.rawValue, interface?.rawValue, member.rawValue)
        else { throw DBusError(.noMemory, "libdbus could not allocate a message") }
        let m = OutgoingMessage(raw: raw)
        if noReply { LibDBus.c.message_set_no_reply(raw, 1) }
        try m.append(body)
        return m
    }

    /// A signal.
    static func signal(path: ObjectPath, interface: InterfaceName, member: MemberName, body: [DBusValue], destination: String? = nil)
        throws(DBusError) -> OutgoingMessage
    {
        guard let raw = LibDBus.c.message_new_signal(path.rawValue, interface.rawValue, member.rawValue) else {
            throw DBusError(.noMemory, "libdbus could not allocate a message")
        }
        let m = OutgoingMessage(raw: raw)
        if let destination { _ = LibDBus.c.message_set_destination(raw, destination) }
        try m.append(body)
        return m
    }

    /// A method return answering the call `serial` from `sender`.
    static func methodReturn(to sender: String?, replySerial serial: UInt32, body: [DBusValue]) throws(DBusError) -> OutgoingMessage {
        guard let raw = LibDBus.c.message_new(tbrd_dbus_message_type_method_return) else {
            throw DBusError(.noMemory, "libdbus could not allocate a message")
        }
        let m = OutgoingMessage(raw: raw)
        _ = LibDBus.c.message_set_reply_serial(raw, serial)
        if let sender { _ = LibDBus.c.message_set_destination(raw, sender) }
        LibDBus.c.message_set_no_reply(raw, 1)
        try m.append(body)
        return m
    }

    /// An error reply answering the call `serial` from `sender`. An empty `message` sends no text
    /// argument at all, as otbr-agent does.
    static func error(to sender: String?, replySerial serial: UInt32, name: ErrorName, message: String) throws(DBusError) -> OutgoingMessage {
        guard let raw = LibDBus.c.message_new(tbrd_dbus_message_type_error) else {
            throw DBusError(.noMemory, "libdbus could not allocate a message")
        }
        let m = OutgoingMessage(raw: raw)
        _ = LibDBus.c.message_set_error_name(raw, name.rawValue)
        _ = LibDBus.c.message_set_reply_serial(raw, serial)
        if let sender { _ = LibDBus.c.message_set_destination(raw, sender) }
        LibDBus.c.message_set_no_reply(raw, 1)
        if !message.isEmpty { try m.append([.string(message)]) }
        return m
    }

    private func append(_ body: [DBusValue]) throws(DBusError) {
        do { try MessageCodec.append(body, to: raw) } catch { throw DBusError(.invalidArgs, error.description) }
    }
}

extension Message {
    /// Decodes a received libdbus message.
    init(_ raw: OpaquePointer) throws(DBusValueError) {
        switch LibDBus.c.message_get_type(raw) {
        case tbrd_dbus_message_type_method_call: kind = .methodCall
        case tbrd_dbus_message_type_method_return: kind = .methodReturn
        case tbrd_dbus_message_type_error: kind = .error
        case tbrd_dbus_message_type_signal: kind = .signal
        default: throw .invalid("unknown message type")
        }
        serial = LibDBus.c.message_get_serial(raw)
        replySerial = LibDBus.c.message_get_reply_serial(raw)
        sender = LibDBus.c.message_get_sender(raw).map { String(cString: $0) }
        destination = LibDBus.c.message_get_destination(raw).map { String(cString: $0) }
        path = LibDBus.c.message_get_path(raw).map { ObjectPath(unchecked: String(cString: $0)) }
        interface = LibDBus.c.message_get_interface(raw).map { InterfaceName(unchecked: String(cString: $0)) }
        member = LibDBus.c.message_get_member(raw).map { MemberName(unchecked: String(cString: $0)) }
        errorName = LibDBus.c.message_get_error_name(raw).map { ErrorName(unchecked: String(cString: $0)) }
        noReplyExpected = LibDBus.c.message_get_no_reply(raw) != 0
        (signature, body) = try MessageCodec.body(of: raw)
    }
}
