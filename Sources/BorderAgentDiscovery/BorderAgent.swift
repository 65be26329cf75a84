public import MDNS
public import MeshCoP

/// A Thread Border Agent seen on the network: its `_meshcop._udp` service with the TXT record decoded
/// by the MeshCoP codec, and whether its `_meshcop-e._udp` service (published only while an ephemeral
/// key is active) is there.
public struct BorderAgent: Hashable, Sendable, CustomStringConvertible {
    /// The instance name, e.g. "OpenThread BorderRouter #0BBF" (it changes with the extended address;
    /// identify an agent by ``MeshCoP/MeshCoPTXTRecord/borderAgentID`` or its extended address instead).
    public var instanceName: String
    /// The SRV target, e.g. `otbr.local`.
    public var hostName: String
    /// The addresses the host name resolved to, sorted.
    public var addresses: [String]
    /// The Border Agent's port (the dummy port 49152 while its DTLS server is not running).
    public var port: UInt16
    /// The decoded TXT record; its ``MeshCoP/MeshCoPTXTRecord/problems`` say what was malformed.
    public var txt: MeshCoPTXTRecord
    /// The port of its `_meshcop-e._udp` service while it has one (an ephemeral key is active).
    public var ephemeralKeyPort: UInt16?
    /// Whether this host publishes it.
    public var isLocal: Bool

    /// An agent as given.
    public init(
        instanceName: String, hostName: String, addresses: [String], port: UInt16, txt: MeshCoPTXTRecord,
        ephemeralKeyPort: UInt16? = nil, isLocal: Bool = false
    ) {
        self.instanceName = instanceName
        self.hostName = hostName
        self.addresses = addresses
        self.port = port
        self.txt = txt
        self.ephemeralKeyPort = ephemeralKeyPort
        self.isLocal = isLocal
    }

    /// The agent a resolved `_meshcop._udp` service describes (its TXT decoded from wire format; never traps).
    public init(service: DiscoveredService, ephemeralKeyPort: UInt16? = nil) {
        self.init(
            instanceName: service.name, hostName: service.hostName, addresses: service.addresses, port: service.port,
            txt: MeshCoPTXTRecord(wireFormat: service.txt), ephemeralKeyPort: ephemeralKeyPort, isLocal: service.isLocal)
    }

    /// Whether an ephemeral key is active (its `_meshcop-e._udp` service is there).
    public var isEphemeralKeyActive: Bool { ephemeralKeyPort != nil }

    /// "name" at host:port, then the TXT summary.
    public var description: String { "\"\(instanceName)\" at \(hostName):\(port) \(txt)" }
}
