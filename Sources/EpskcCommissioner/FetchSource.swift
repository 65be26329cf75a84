public import BorderAgentDiscovery
public import DTLS
public import MeshCoP

/// The border agent a fetch goes to, and what is known of it: the `source` of `tbrctl --json network
/// fetch`.
public struct FetchSource: Hashable, Sendable, Codable {
    /// Where the key's DTLS port is.
    public var address: String
    /// The mDNS instance name, when it came from mDNS.
    public var instance: String?
    /// The Border Agent ID from its `_meshcop._udp` TXT record (`id`), as hex.
    public var borderAgentId: String?
    /// `vn` and `mn` from the TXT record.
    public var vendorName: String?
    public var productName: String?

    public init(address: UDPAddress, agent: BorderAgent? = nil) {
        self.address = address.description
        instance = agent?.instanceName
        borderAgentId = agent?.txt.borderAgentID?.description
        vendorName = agent?.txt.vendorName
        productName = agent?.txt.modelName
    }

    /// The source from its D-Bus form.
    public init?(dictionary d: [String: String]) {
        guard let address = d["address"] else { return nil }
        self.address = address
        instance = d["instance"]
        borderAgentId = d["borderAgentId"]
        vendorName = d["vendorName"]
        productName = d["productName"]
    }

    /// The source as D-Bus carries it (`a{ss}`, absent keys left out).
    public var dictionary: [String: String] {
        var d = ["address": address]
        d["instance"] = instance
        d["borderAgentId"] = borderAgentId
        d["vendorName"] = vendorName
        d["productName"] = productName
        return d
    }

    /// The UDP address again.
    public var udpAddress: UDPAddress? { UDPAddress(parsing: address) }
}

/// How a fetch's TARGET is found: `[ADDR]:PORT` as given, or a border agent on mDNS whose
/// `_meshcop-e._udp` service is published now (by instance name, by Border Agent ID, or the only one).
public enum FetchTarget: Hashable, Sendable {
    case address(UDPAddress)
    /// An mDNS instance name, as `tbrctl discover` shows it.
    case instance(String)
    /// A Border Agent ID (a managed router's, looked up by the caller).
    case borderAgent(BorderAgentID, router: String)
    /// The one agent with a key active.
    case onlyActive

    /// Why no border agent could be chosen.
    public enum ResolutionError: Error, Equatable, Sendable, CustomStringConvertible {
        /// No agent on mDNS has `_meshcop-e._udp` now.
        case noneActive
        /// Several have: name them.
        case several([String])
        /// The named one is not there, or has no key active.
        case notFound(String, seen: Bool)
        /// The agent has a key, but none of its addresses is usable.
        case noAddress(String)

        public var description: String {
            switch self {
            case .noneActive:
                "no border agent on the LAN publishes _meshcop-e._udp now: start an ePSKc on the router first "
                    + "(its app, or 'tbrctl epskc activate'), or give --from [ADDR]:PORT"
            case .several(let names):
                "several border agents have an ePSKc active; choose one with --from:\n"
                    + names.map { "  \($0)" }.joined(separator: "\n")
            case .notFound(let name, let seen):
                seen
                    ? "\(name) has no ePSKc active (its _meshcop-e._udp service is not published): start a key there first"
                    : "no border agent \(name) on the LAN (mDNS); 'tbrctl discover' lists them"
            case .noAddress(let name):
                "\(name) publishes its ePSKc port, but none of its addresses can be used"
            }
        }
    }

    /// TARGET as the command line gives it: `[ADDR]:PORT` or `ADDR:PORT`, else an instance name. (A
    /// managed router's id is the caller's to recognise first.)
    public init(parsing text: String?) {
        guard let text else {
            self = .onlyActive
            return
        }
        if let address = UDPAddress(parsing: text) { self = .address(address) } else { self = .instance(text) }
    }

    /// Picks the agent from what mDNS showed.
    /// - Returns: the address of its key's DTLS port, and what is known of it.
    public func resolve(in agents: [BorderAgent]) throws(ResolutionError) -> (UDPAddress, FetchSource) {
        let active = agents.filter(\.isEphemeralKeyActive)
        let agent: BorderAgent
        switch self {
        case .address(let address):
            // Described by the agent at that address and port, when mDNS shows one.
            let match = active.first { $0.ephemeralKeyPort == address.port && $0.addresses.contains(address.host) }
            return (address, FetchSource(address: address, agent: match))
        case .instance(let name):
            guard let found = active.first(where: { $0.instanceName == name }) else {
                throw .notFound(Quoted(name), seen: agents.contains { $0.instanceName == name })
            }
            agent = found
        case .borderAgent(let id, let router):
            guard let found = active.first(where: { $0.txt.borderAgentID == id }) else {
                throw .notFound(router, seen: agents.contains { $0.txt.borderAgentID == id })
            }
            agent = found
        case .onlyActive:
            guard let only = active.first else { throw .noneActive }
            guard active.count == 1 else { throw .several(active.map { "\"\($0.instanceName)\" (\($0.hostName))" }) }
            agent = only
        }
        guard let port = agent.ephemeralKeyPort, let address = Self.bestAddress(agent.addresses, port: port) else {
            throw .noAddress(Quoted(agent.instanceName))
        }
        return (address, FetchSource(address: address, agent: agent))
    }

    /// Whether it is a literal address (no mDNS needed).
    public var isAddress: Bool { if case .address = self { true } else { false } }

    /// Whether `resolve` can be answered without waiting for the rest of the browse.
    public func isSettled(by agents: [BorderAgent]) -> Bool {
        switch self {
        case .onlyActive: false
        case .address(let a): agents.contains { $0.ephemeralKeyPort == a.port && $0.addresses.contains(a.host) }
        case .instance(let name): agents.contains { $0.instanceName == name && $0.isEphemeralKeyActive }
        case .borderAgent(let id, _): agents.contains { $0.txt.borderAgentID == id && $0.isEphemeralKeyActive }
        }
    }

    /// An address to use: global or unique-local IPv6 and IPv4 before link-local (which needs a zone).
    static func bestAddress(_ addresses: [String], port: UInt16) -> UDPAddress? {
        let ranked = addresses.sorted { rank($0) < rank($1) }
        return ranked.lazy.compactMap { UDPAddress(host: $0, port: port) }.first
    }

    private static func rank(_ address: String) -> Int {
        if address.lowercased().hasPrefix("fe80") { return address.contains("%") ? 2 : 3 }
        return address.contains(":") ? 0 : 1
    }
}

/// `"name"` for messages.
private func Quoted(_ text: String) -> String { "\"\(text)\"" }
