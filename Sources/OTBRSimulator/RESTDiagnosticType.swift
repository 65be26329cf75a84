/// The network diagnostic types a `getNetworkDiagnosticTask` names, by JSON key, with their TLV type
/// (ot-br-posix `src/rest/diagnostic_types.hpp`, `names.hpp`).
struct RESTDiagnosticType: Hashable, Comparable, Sendable {
    /// The Network Diagnostic TLV type.
    let tlv: UInt8

    static let extAddress = RESTDiagnosticType(tlv: 0), rloc16 = RESTDiagnosticType(tlv: 1), mode = RESTDiagnosticType(tlv: 2)
    static let timeout = RESTDiagnosticType(tlv: 3), connectivity = RESTDiagnosticType(tlv: 4), route = RESTDiagnosticType(tlv: 5)
    static let leaderData = RESTDiagnosticType(tlv: 6), networkData = RESTDiagnosticType(tlv: 7)
    static let ipv6Addresses = RESTDiagnosticType(tlv: 8), macCounters = RESTDiagnosticType(tlv: 9)
    static let childTable = RESTDiagnosticType(tlv: 16), channelPages = RESTDiagnosticType(tlv: 17)
    static let eui = RESTDiagnosticType(tlv: 23), threadVersion = RESTDiagnosticType(tlv: 24)
    static let vendorName = RESTDiagnosticType(tlv: 25), vendorModel = RESTDiagnosticType(tlv: 26)
    static let vendorSwVersion = RESTDiagnosticType(tlv: 27), threadStackVersion = RESTDiagnosticType(tlv: 28)
    static let children = RESTDiagnosticType(tlv: 29), childIPv6Addresses = RESTDiagnosticType(tlv: 30)
    static let routerNeighbors = RESTDiagnosticType(tlv: 31), mleCounters = RESTDiagnosticType(tlv: 34)

    /// The JSON keys of the 27 types the agent recognises, by TLV type.
    private static let keys: [UInt8: String] = [
        0: "extAddress", 1: "rloc16", 2: "mode", 3: "timeout", 4: "connectivity", 5: "route", 6: "leaderData",
        7: "networkData", 8: "ipv6Addresses", 9: "macCounters", 14: "batteryLevel", 15: "supplyVoltage", 16: "childTable",
        17: "channelPages", 19: "maxChildTimeout", 20: "lDevIdSubject", 21: "iDevIdCert", 23: "eui", 24: "threadVersion",
        25: "vendorName", 26: "vendorModel", 27: "vendorSwVersion", 28: "threadStackVersion", 29: "children",
        30: "childIpv6Addresses", 31: "routerNeighbors", 34: "mleCounters",
    ]

    /// The type named `key`; nil for a key the agent does not recognise.
    init?(key: String) {
        guard let tlv = Self.keys.first(where: { $0.value == key })?.key else { return nil }
        self.tlv = tlv
    }

    private init(tlv: UInt8) { self.tlv = tlv }

    /// The JSON key.
    var key: String { Self.keys[tlv] ?? "\(tlv)" }

    /// Answered by a mesh diagnostic query rather than in the `DIAG_GET` response (`kPropertyQuery`).
    var isQuery: Bool { [29, 30, 31].contains(tlv) }

    /// A node may leave it out of its answer without the request counting as incomplete
    /// (`kPropertyOmittable`): timeout, battery level, supply voltage, maximum child timeout.
    var isOmittable: Bool { [3, 14, 15, 19].contains(tlv) }

    static func < (a: RESTDiagnosticType, b: RESTDiagnosticType) -> Bool { a.tlv < b.tlv }
}
