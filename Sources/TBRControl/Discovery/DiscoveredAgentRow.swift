import BorderAgentDiscovery
import MeshCoP
import TBRFoundation

/// One Border Agent as `tbrctl discover` shows it; its JSON form is the contract of
/// `tbrctl --json discover`: `{instance, networkName, extPanId, vendorName, modelName, role,
/// epskcSupported, epskcActive, addresses, port, borderAgentId, managed, router, restUrl, problems}`, null
/// when unknown.
struct DiscoveredAgentRow: Sendable, Hashable, Encodable {
    /// The `_meshcop._udp` instance name.
    var instance: String
    /// `nn`; nil when not advertised (no complete active dataset) or malformed.
    var networkName: String?
    /// `xp`, 16 lower-case hex digits.
    var extPanId: String?
    /// `vn`.
    var vendorName: String?
    /// `mn`.
    var modelName: String?
    /// From `sb`: `disabled`, `detached`, `child`, `router` or `leader`; nil when `sb` is missing or does
    /// not say (older agents leave the role bits 0 while attached).
    var role: String?
    /// `sb` bit 11.
    var epskcSupported: Bool
    /// Whether its `_meshcop-e._udp` service is there (an ephemeral key is active).
    var epskcActive: Bool
    /// The addresses its host resolved to.
    var addresses: [String]
    /// The Border Agent port (49152, the dummy port, while its DTLS server is not running).
    var port: UInt16
    /// `id`, 32 lower-case hex digits.
    var borderAgentId: String?
    /// Whether tbrd manages it (one of tbrd's routers has its Border Agent ID).
    var managed: Bool
    /// The id of the tbrd router it is; nil unless managed.
    var router: String?
    /// Its otbr-agent REST API (`http://ADDRESS:8081`) when `/.well-known/thread/br-rest` answered there;
    /// nil otherwise (``RESTProbe``).
    var restUrl: String?
    /// What was wrong in its TXT record, one sentence each (`{"key", "message"}` in JSON).
    var problems: [TXTProblem]

    /// The row for `agent`; `managedBy` maps Border Agent IDs (hex) to tbrd router ids.
    init(_ agent: BorderAgent, managedBy: [String: String]) {
        let txt = agent.txt
        instance = agent.instanceName
        networkName = txt.networkName?.rawValue
        extPanId = txt.extendedPANID?.description
        vendorName = txt.vendorName
        modelName = txt.modelName
        role = txt.stateBitmap.flatMap(Self.role(of:))
        epskcSupported = txt.stateBitmap?.isEPSKcSupported ?? false
        epskcActive = agent.isEphemeralKeyActive
        addresses = agent.addresses
        port = agent.port
        borderAgentId = txt.borderAgentID?.description
        router = borderAgentId.flatMap { managedBy[$0] }
        managed = router != nil
        problems = txt.problems
    }

    /// The role the state bitmap says.
    static func role(of sb: StateBitmap) -> String? {
        switch sb.interfaceStatus {
        case .notInitialized: "disabled"
        case .initialized: "detached"
        case .active:
            switch sb.threadRole {
            case .child: "child"
            case .router: "router"
            case .leader: "leader"
            case .disabledOrDetached: nil
            }
        case .other: nil
        }
    }

    /// The heading it is grouped under in text: `Network "name" (extpanid)`, or `No network`.
    var network: String {
        switch (networkName, extPanId) {
        case (let n?, let x?): "Network \(Quoted(n)) (\(x))"
        case (let n?, nil): "Network \(Quoted(n))"
        case (nil, let x?): "Network (\(x))"
        case (nil, nil): "No network"
        }
    }

    /// Sorted by network name, extended PAN ID, then instance name (agents without a network last).
    static func sorted(_ rows: [DiscoveredAgentRow]) -> [DiscoveredAgentRow] {
        rows.sorted {
            let a = ($0.networkName == nil && $0.extPanId == nil ? 1 : 0, $0.networkName ?? "", $0.extPanId ?? "", $0.instance)
            let b = ($1.networkName == nil && $1.extPanId == nil ? 1 : 0, $1.networkName ?? "", $1.extPanId ?? "", $1.instance)
            return a < b
        }
    }

    private enum CodingKeys: String, CodingKey {
        case instance, networkName, extPanId, vendorName, modelName, role, epskcSupported, epskcActive, addresses, port
        case borderAgentId, managed, router, restUrl, problems
    }

    /// Encodes every key, null for what is unknown.
    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(instance, forKey: .instance)
        try c.encode(networkName, forKey: .networkName)
        try c.encode(extPanId, forKey: .extPanId)
        try c.encode(vendorName, forKey: .vendorName)
        try c.encode(modelName, forKey: .modelName)
        try c.encode(role, forKey: .role)
        try c.encode(epskcSupported, forKey: .epskcSupported)
        try c.encode(epskcActive, forKey: .epskcActive)
        try c.encode(addresses, forKey: .addresses)
        try c.encode(port, forKey: .port)
        try c.encode(borderAgentId, forKey: .borderAgentId)
        try c.encode(managed, forKey: .managed)
        try c.encode(router, forKey: .router)
        try c.encode(restUrl, forKey: .restUrl)
        try c.encode(problems, forKey: .problems)
    }
}
