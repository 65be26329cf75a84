import OpenThreadREST
import TBRFoundation
import Testing

/// `NetworkDiagnostics.decode`: the `/api/diagnostics` document as ot-br-posix's `json.cpp` writes it,
/// read into typed values; anything malformed is an `invalidResponse` error, never a crash.
@Suite struct NetworkDiagnosticsDecodingTests {
    /// A router (0x1400) with one sleepy child, and an energy scan report that is skipped.
    static let document: JSON = [
        "data": [
            [
                "id": "11111111-2222-4333-8444-555555555555", "type": "networkDiagnostics",
                "attributes": [
                    "extAddress": "1a2b3c4d5e6f7081", "rloc16": "0x1400", "routerId": 5,
                    "mode": ["rxOnWhenIdle": true, "fullThreadDevice": true, "fullNetworkData": true],
                    "route": [
                        "idSequence": 7,
                        "routeData": [
                            ["routeId": 5, "linkQualityOut": 0, "linkQualityIn": 0, "routeCost": 1],
                            ["routeId": 9, "linkQualityOut": 2, "linkQualityIn": 3, "routeCost": 1],
                            ["routeId": 12, "linkQualityOut": 0, "linkQualityIn": 0, "routeCost": 3],
                        ],
                    ],
                    "leaderData": ["partitionId": 4_000_000_000, "weighting": 64, "dataVersion": 3, "stableDataVersion": 2, "leaderRouterId": 9],
                    "children": [
                        [
                            "rxOnWhenIdle": false, "fullThreadDevice": false, "fullNetworkData": false, "rloc16": "0x1401", "childId": 1,
                            "extAddress": "00000000000000c1", "timeout": 240, "age": 3, "linkMargin": 14,
                        ]
                    ],
                    "created": "2026-12-01T20:00:00+00:00",
                ],
            ],
            ["id": "x", "type": "energyScanReport", "attributes": ["origin": "1a2b3c4d5e6f7081"]],
        ],
        "meta": ["collection": ["offset": 0, "limit": 200, "total": 2]],
    ]

    @Test func aDocumentDecodesIntoRoutersChildrenAndLinks() throws {
        let mesh = try NetworkDiagnostics.decode(Array(Self.document.serialized.utf8))
        #expect(mesh.nodes.map(\.rloc16) == [0x1400, 0x1401])
        let router = try #require(mesh.node(extAddress: 0x1A2B_3C4D_5E6F_7081))
        #expect(router.role == .router && router.routerID == 5 && router.parentRloc16 == nil)
        #expect(router.neighbourLinks == [NetworkDiagnostics.RouterLink(routerID: 9, linkQualityIn: 3, linkQualityOut: 2, routeCost: 1)])
        #expect(router.routes.count == 3)
        #expect(mesh.leaderData == NetworkDiagnostics.LeaderData(partitionID: 4_000_000_000, weighting: 64, dataVersion: 3, stableDataVersion: 2, leaderRouterID: 9))
        let child = try #require(mesh.node(rloc16: 0x1401))
        #expect(child.extAddress == 0xC1 && child.role == .child && child.routerID == nil && mesh.parent(of: child) == router)
        #expect(child.childTimeout == 240 && child.mode?.rxOnWhenIdle == false && child.leaderData == mesh.leaderData)
        #expect(child.age == 3 && child.linkMargin == 14 && child.linkQuality == 2, "what its parent measures of it")
        // Only the items asked for.
        #expect(try NetworkDiagnostics.decode(Array(Self.document.serialized.utf8), keeping: ["other"]).nodes.isEmpty)
    }

    /// `document` with the first item's attribute `key` replaced (nil: removed).
    static func with(_ key: String, _ value: JSON?) -> [UInt8] {
        guard case .object(var root) = document, case .array(var items)? = root["data"], case .object(var item) = items[0],
            case .object(var attributes)? = item["attributes"]
        else { return [] }
        attributes[key] = value
        item["attributes"] = .object(attributes)
        items[0] = .object(item)
        root["data"] = .array(items)
        return Array(JSON.object(root).serialized.utf8)
    }

    /// OpenThread's thresholds, at and around each boundary.
    @Test func aChildsLinkMarginGivesItsLinkQuality() {
        let expected: [(UInt8, UInt8)] = [(0, 0), (2, 0), (3, 1), (10, 1), (11, 2), (20, 2), (21, 3), (255, 3)]
        for (margin, quality) in expected {
            #expect(NetworkDiagnostics.Node(extAddress: 1, rloc16: 0x0401, linkMargin: margin).linkQuality == quality, "margin \(margin)")
        }
        #expect(NetworkDiagnostics.Node(extAddress: 1, rloc16: 0x0401).linkQuality == nil)
    }

    @Test func malformedDocumentsAreRejectedWithAReason() {
        let bad: [(String, [UInt8])] = [
            ("not JSON", Array("{\"data\": [".utf8)), ("no data", Array("{}".utf8)), ("HTML", Array("<html></html>".utf8)),
            ("short extAddress", Self.with("extAddress", "1a2b")), ("no extAddress", Self.with("extAddress", nil)),
            ("rloc16 as a number", Self.with("rloc16", 5120)), ("rloc16 without 0x", Self.with("rloc16", "001400")),
            ("mode incomplete", Self.with("mode", ["rxOnWhenIdle": true])),
            ("negative timeout", Self.with("timeout", -1)), ("timeout too large", Self.with("timeout", 5_000_000_000)),
            ("route without data", Self.with("route", ["idSequence": 1])),
            ("a child's link margin over 255", Self.with("children", [["rxOnWhenIdle": true, "fullThreadDevice": true, "fullNetworkData": true, "rloc16": "0x1401", "extAddress": "00000000000000c1", "linkMargin": 256]])),
            ("a negative age", Self.with("children", [["rxOnWhenIdle": true, "fullThreadDevice": true, "fullNetworkData": true, "rloc16": "0x1401", "extAddress": "00000000000000c1", "age": -1]])),
            ("link quality 4", Self.with("route", ["routeData": [["routeId": 1, "linkQualityOut": 4, "linkQualityIn": 0, "routeCost": 1]]])),
            ("router ID 63", Self.with("route", ["routeData": [["routeId": 63, "linkQualityOut": 0, "linkQualityIn": 0, "routeCost": 1]]])),
            ("a fraction", Self.with("leaderData", ["partitionId": 1.5, "weighting": 1, "dataVersion": 1, "stableDataVersion": 1, "leaderRouterId": 1])),
            ("children not a list", Self.with("children", "none")),
            ("another router's child", Self.with("children", [["rxOnWhenIdle": true, "fullThreadDevice": true, "fullNetworkData": true, "rloc16": "0x0801", "extAddress": "00000000000000c1"]])),
            ("a router as a child", Self.with("children", [["rxOnWhenIdle": true, "fullThreadDevice": true, "fullNetworkData": true, "rloc16": "0x1400", "extAddress": "00000000000000c1"]])),
        ]
        for (what, body) in bad {
            do throws(RESTAgentError) {
                _ = try NetworkDiagnostics.decode(body)
                Issue.record("\(what) was taken")
            } catch {
                #expect(error.kind == .invalidResponse && error.message.contains("unreadable"), "\(what): \(error)")
            }
        }
    }

    @Test func everyTruncationOfADocumentDecodesOrThrows() {
        let full = Array(Self.document.serialized.utf8)
        var decoded = 0
        for length in 0..<full.count {
            if (try? NetworkDiagnostics.decode(Array(full.prefix(length)))) != nil { decoded += 1 }
        }
        #expect(decoded == 0, "a cut document is never whole JSON")
        #expect((try? NetworkDiagnostics.decode(full)) != nil)
    }
}
