/// One interface of an object on another connection: calls and properties without repeating the
/// destination, path and interface at every call site.
public struct RemoteObject: Sendable {
    public let connection: Connection
    public let destination: BusName
    public let path: ObjectPath
    public let interface: InterfaceName

    public init(connection: Connection, destination: BusName, path: ObjectPath, interface: InterfaceName) {
        self.connection = connection
        self.destination = destination
        self.path = path
        self.interface = interface
    }

    /// Calls `member` with `arguments`; see ``Connection/call(destination:path:interface:member:arguments:timeout:)``.
    public func call(_ member: MemberName, _ arguments: [DBusValue] = [], timeout: Duration = Connection.defaultTimeout)
        async throws -> [DBusValue]
    {
        try await connection.call(destination: destination, path: path, interface: interface, member: member,
                                  arguments: arguments, timeout: timeout)
    }

    /// Reads property `name` with `org.freedesktop.DBus.Properties.Get`, unwrapped from its variant.
    public func property(_ name: String, timeout: Duration = Connection.defaultTimeout) async throws -> DBusValue {
        let reply = try await connection.call(
            destination: destination, path: path, interface: .properties, member: "Get",
            arguments: [.string(interface.rawValue), .string(name)], timeout: timeout)
        guard let first = reply.first, case .variant(let value) = first else {
            throw DBusError(.invalidSignature, "Properties.Get of \(name) did not return a variant")
        }
        return value
    }

    /// Reads property `name` as `T`.
    /// - Throws: ``DBusError`` from the peer, or ``DBusValueError`` if the value has another type.
    public func property<T: DBusRepresentable>(_ name: String, as _: T.Type, timeout: Duration = Connection.defaultTimeout)
        async throws -> T
    {
        try await property(name, timeout: timeout).decode(as: T.self)
    }

    /// Writes property `name` with `org.freedesktop.DBus.Properties.Set`.
    public func setProperty(_ name: String, _ value: DBusValue, timeout: Duration = Connection.defaultTimeout) async throws {
        _ = try await connection.call(
            destination: destination, path: path, interface: .properties, member: "Set",
            arguments: [.string(interface.rawValue), .string(name), .variant(value)], timeout: timeout)
    }

    /// Reads every property with `GetAll`. Do not use it on otbr-agent, whose `GetAll` fails (see
    /// docs/architecture.md); read properties one by one or with its `GetProperties` method.
    public func allProperties(timeout: Duration = Connection.defaultTimeout) async throws -> [String: DBusValue] {
        let reply = try await connection.call(
            destination: destination, path: path, interface: .properties, member: "GetAll",
            arguments: [.string(interface.rawValue)], timeout: timeout)
        guard let first = reply.first else { return [:] }
        return try [String: DBusValue](dbusValue: first)
    }

    /// `PropertiesChanged` signals of this interface, from the current owner of ``destination``.
    public func propertiesChanged() async throws -> SignalStream {
        try await connection.signals(matching: .propertiesChanged(sender: destination, path: path, interface: interface))
    }

    /// Signals named `member` of this interface from this object.
    public func signals(_ member: MemberName) async throws -> SignalStream {
        try await connection.signals(matching: MatchRule(sender: destination, path: path, interface: interface, member: member))
    }

    /// The object's introspection XML.
    public func introspect() async throws -> String {
        let reply = try await connection.call(destination: destination, path: path, interface: .introspectable,
                                              member: "Introspect")
        guard case .string(let xml)? = reply.first else { throw DBusError(.invalidSignature, "Introspect returned no string") }
        return xml
    }
}
