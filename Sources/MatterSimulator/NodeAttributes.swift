internal import FoundationEssentials
import TBRFoundation

/// The attributes a simulated device reports when it is interviewed, keyed `"endpoint/cluster/attribute"`
/// and valued as python-matter-server stores them (structs as objects keyed by field tag, bytes as
/// base64, in the order a device reports them: each cluster's own attributes, then its global ones
/// 65532, 65533, 65528, 65529, 65531). Enough for a real client's node model: endpoint 0 is a root
/// node (Descriptor, AccessControl, BasicInformation, GeneralCommissioning, NetworkCommissioning for
/// Thread, GeneralDiagnostics, ThreadNetworkDiagnostics, AdministratorCommissioning unless the device
/// has no multi-admin, OperationalCredentials, GroupKeyManagement); endpoint 1 an on/off light
/// (Identify, Groups, OnOff, Descriptor). The values are those of the CHIP SDK's example apps where a
/// device has no reason to differ (`TEST_VENDOR`, `TEST_PRODUCT`, `TEST_VERSION`).
enum NodeAttributes {
    /// The BasicInformation NodeLabel attribute, `0/40/5`.
    static let nodeLabel = "0/40/5"
    /// Its most bytes (Matter 1.3, 11.1.6.6: string, max 32).
    static let nodeLabelMaximum = 32

    /// The attributes of `device` commissioned as `node` onto the fabric of `server` on `network`.
    static func make(device: SimulatedDevice, node: UInt64, fabricID: UInt64, network: ThreadNetwork) -> JSONObject {
        var out = JSONObject()
        func cluster(
            _ endpoint: Int, _ id: Int, _ attributes: [(Int, JSON)], feature: Int64 = 0, revision: Int64 = 1, generated: [Int64] = [],
            accepted: [Int64] = []
        ) {
            for (attribute, value) in attributes { out["\(endpoint)/\(id)/\(attribute)"] = value }
            out["\(endpoint)/\(id)/65532"] = .int(feature)
            out["\(endpoint)/\(id)/65533"] = .int(revision)
            out["\(endpoint)/\(id)/65528"] = .array(generated.map(JSON.int))
            out["\(endpoint)/\(id)/65529"] = .array(accepted.map(JSON.int))
            out["\(endpoint)/\(id)/65531"] = .array((attributes.map { Int64($0.0) } + [65528, 65529, 65531, 65532, 65533]).map(JSON.int))
        }
        func bytes(_ b: [UInt8]) -> JSON { .string(Data(b).base64EncodedString()) }
        let rootServers: [Int64] = [29, 31, 40, 48, 49, 51, 53] + (device.supportsMultiAdmin ? [60] : []) + [62, 63]
        let serial = String(format16: device.discriminator) + String(format16: UInt16(truncatingIfNeeded: node))

        cluster(0, 29, [(0, [["0": 22, "1": 3]]), (1, .array(rootServers.map(JSON.int))), (2, []), (3, [1])], revision: 2)
        cluster(0, 31, [
            (0, [["1": 5, "2": 2, "3": [112233], "4": nil, "254": 1]]), (1, []), (2, 4), (3, 3), (4, 4),
        ], revision: 2)
        cluster(0, 40, [
            (0, 17), (1, "TEST_VENDOR"), (2, JSON(device.vendorID)), (3, "TEST_PRODUCT"), (4, JSON(device.productID)), (5, ""), (6, "XX"),
            (7, 0), (8, "TEST_VERSION"), (9, 1), (10, "1.0"), (15, .string("SIM\(serial)")), (18, .string("SIM-\(serial)")),
            (19, ["0": 3, "1": 3]), (21, 0x0104_0000), (22, 1),
        ], revision: 4)
        cluster(0, 48, [(0, 0), (1, ["0": 60, "1": 900]), (2, 0), (3, 0), (4, true)], generated: [1, 3, 5], accepted: [0, 2, 4])
        cluster(0, 49, [
            (0, 1), (1, [["0": bytes(network.extendedPANIDBytes), "1": true]]), (2, 10), (3, 20), (4, true), (5, 0),
            (6, bytes(network.extendedPANIDBytes)), (7, nil), (9, 4), (10, 2),
        ], feature: 2, revision: 2, generated: [1, 5, 7], accepted: [0, 3, 4, 6, 8])
        cluster(0, 51, [
            (0, [["0": "ieee802154", "1": true, "2": nil, "3": nil, "4": bytes([0x1A, 0xB4, 0x30, 0, 0, 0, 0, UInt8(truncatingIfNeeded: node)]),
                  "5": [], "6": [bytes(network.meshLocalPrefix + [0, 0, 0, 0xFF, 0xFE, 0, 0xFC, UInt8(truncatingIfNeeded: node)])], "7": 4]]),
            (1, 1), (2, 120), (5, []), (6, []), (7, []), (8, false),
        ], revision: 2, accepted: [0, 1])
        cluster(0, 53, [
            (0, JSON(network.channel)), (1, 5), (2, .string(network.networkName)), (3, JSON(network.panID)), (4, JSON(network.extendedPANID)),
            (5, bytes(network.meshLocalPrefix)), (7, []), (8, []), (9, 1), (10, 64), (11, 0), (12, 64), (13, 0), (59, ["0": 672, "1": 8335]),
            (60, bytes([0, 0x1F, 0xFF, 0xC0])), (61, ["0": true, "1": false, "2": true, "3": true, "4": true, "5": true, "6": false, "7": true,
                "8": true, "9": true, "10": true, "11": true]), (62, [0, 0, 0, 0]),
        ], revision: 2)
        if device.supportsMultiAdmin {
            cluster(0, 60, [(0, 0), (1, nil), (2, nil)], accepted: [0, 2])
        }
        cluster(0, 62, [
            (0, [["1": bytes(Self.certificate(node, 1)), "2": nil, "254": 1]]),
            (1, [["1": bytes(Self.certificate(fabricID, 2, length: 65)), "2": 0xFFF1, "3": JSON(fabricID), "4": JSON(node), "5": "", "254": 1]]),
            (2, 5), (3, 1), (4, [bytes(Self.certificate(fabricID, 3))]), (5, 1),
        ], generated: [1, 3, 5, 8], accepted: [0, 2, 4, 6, 7, 9, 10, 11])
        cluster(0, 63, [(0, []), (1, []), (2, 3), (3, 3)], revision: 2, generated: [2, 5], accepted: [0, 1, 3, 4])
        cluster(1, 3, [(0, 0), (1, 2)], revision: 5, accepted: [0, 64])
        cluster(1, 4, [(0, 128)], feature: 1, revision: 4, generated: [0, 1, 2, 3], accepted: [0, 1, 2, 3, 4, 5])
        cluster(1, 6, [(0, false), (16384, true), (16385, 0), (16386, 0), (16387, nil)], feature: 1, revision: 6, accepted: [0, 1, 2, 64, 65, 66])
        cluster(1, 29, [(0, [["0": 256, "1": 3]]), (1, [3, 4, 6, 29]), (2, []), (3, [])], revision: 2)
        return out
    }

    /// Bytes that stand in for a certificate or key (they only need to look like one): deterministic,
    /// from `seed` and `kind`.
    static func certificate(_ seed: UInt64, _ kind: UInt8, length: Int = 240) -> [UInt8] {
        var state = seed &* 0x9E37_79B9_7F4A_7C15 &+ UInt64(kind)
        return (0..<length).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
    }
}

extension String {
    /// Four upper-case hex digits.
    fileprivate init(format16 value: UInt16) {
        let hex = String(value, radix: 16, uppercase: true)
        self = String(repeating: "0", count: 4 - hex.count) + hex
    }
}
