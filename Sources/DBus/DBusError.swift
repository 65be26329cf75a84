/// An error reply from the bus or a peer, or a failure of this layer, named like a D-Bus error.
public struct DBusError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The D-Bus error name, e.g. `org.freedesktop.DBus.Error.ServiceUnknown` or `io.openthread.Error.Busy`.
    public var name: ErrorName
    /// The human-readable message (may be empty: otbr-agent sends none).
    public var message: String

    /// An error with `name` and `message`.
    public init(_ name: ErrorName, _ message: String = "") {
        self.name = name
        self.message = message
    }

    public var description: String { message.isEmpty ? name.rawValue : "\(name.rawValue): \(message)" }

    static func disconnected(_ detail: String = "the connection to the bus is closed") -> DBusError {
        DBusError(.disconnected, detail)
    }

    /// A call whose timeout passed before its reply came.
    static let callTimedOut = DBusError(.noReply, "no reply before the call's timeout")

    /// The bus ended the connection (its `Disconnected` signal, or the socket closing).
    static let busClosedConnection = disconnected("the bus closed the connection")
}
