/// A service to publish: an instance name, a type, a port and a TXT record.
public struct ServiceRegistration: Hashable, Sendable, CustomStringConvertible {
    /// The instance name (at most 63 bytes of UTF-8). On a name conflict Avahi's alternative name is used
    /// ("Name #2"); ``MDNSClient/publishedName(_:)`` says which.
    public var name: String
    /// The service type.
    public var type: ServiceType
    /// The port of the SRV record.
    public var port: UInt16
    /// The TXT record in DNS wire format (length-prefixed `key=value` strings); empty for an empty record.
    public var txt: [UInt8]

    /// A registration as given.
    public init(name: String, type: ServiceType, port: UInt16, txt: [UInt8] = []) {
        self.name = name
        self.type = type
        self.port = port
        self.txt = txt
    }

    public var description: String { "\"\(name)\" (\(type)) port \(port)" }
}
