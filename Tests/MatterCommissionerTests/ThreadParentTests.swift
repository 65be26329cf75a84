@testable import MatterCommissioner
import TBRFoundation
import Testing

/// A node's Thread parent read from its Thread Network Diagnostics NeighborTable (0/53/7) as
/// python-matter-server writes it: struct fields by tag, or by name for some devices.
@Suite struct ThreadParentTests {
    static func node(_ table: String) throws -> CommissionedNode? {
        MatterServerCommissioner.node(
            from: try JSON(parsing: #"{"node_id": 7, "available": false, "attributes": {"0/40/2": 65521, "0/53/7": "# + table + "}}"))
    }

    @Test func theOneNeighbourThatIsNotAChildIsTheParentByTagOrByName() throws {
        let byTag = try Self.node(#"[{"0": 18374686479671623680, "1": 3, "2": 20480, "5": 180, "6": -71, "7": -70, "13": false}]"#)
        #expect(byTag?.threadParent == ThreadNeighbor(extAddress: 0xFF00_0000_0000_0000, lqi: 180, averageRssi: -71))
        #expect(byTag?.isAvailable == false && byTag?.vendorID == 0xFFF1)
        let byName = try Self.node(#"[{"extAddress": 4660, "lqi": 255, "averageRssi": -50, "isChild": false}]"#)
        #expect(byName?.threadParent == ThreadNeighbor(extAddress: 4660, lqi: 255, averageRssi: -50))
    }

    @Test func aRouterHasNoParentAndOddTablesGiveNone() throws {
        let router = #"[{"0": 1, "13": false}, {"0": 2, "13": false}, {"0": 3, "13": true}]"#
        #expect(try Self.node(router)?.threadParent == nil, "several routers around: it is a router")
        for odd in [#"[]"#, #"null"#, #""text""#, #"[{"0": -5, "13": false}]"#, #"[{"0": 1.5, "13": false}]"#, #"[{"0": 1}]"#, #"[7]"#] {
            #expect(try Self.node(odd)?.threadParent == nil, "\(odd)")
        }
        // A link figure out of range is left out, the parent kept.
        let wild = try Self.node(#"[{"0": 9, "5": 999, "6": -300, "13": false}]"#)
        #expect(wild?.threadParent == ThreadNeighbor(extAddress: 9, lqi: nil, averageRssi: nil))
    }
}
