import DBus
import DeviceModel
import TBRCommandLine
import TBRDBusAPI
import TBRFoundation

extension Matter {
    /// `tbrctl matter nodes [--structure S] [--unclaimed]`: the Matter nodes of each structure, or the
    /// commissioner's nodes no structure holds.
    struct Nodes: ControlCommand {
        static let configuration = CommandConfiguration(
            name: "nodes",
            abstract: "List the Matter nodes of structures (all, or one), or the commissioner's unclaimed ones.",
            discussion: """
                tbrd records every node it commissioned (node ID, vendor and product IDs, when, its name and \
                room) in its state database, per structure; they survive restarts.

                With --json: an array of {structure, nodeId, vendorId, productId, commissionedAt, name, room}, \
                the IDs numbers (vendorId and productId null when the commissioner did not read them), the \
                time in ISO 8601 UTC, name and room null when unset.

                --unclaimed lists instead the nodes the Matter commissioner (python-matter-server) has that no \
                structure holds: on a server shared with another controller (Home Assistant), that \
                controller's devices, and any device a commissioning of tbrd's added after its outcome \
                became unknown. tbrd never touches them; 'tbrctl matter adopt NODE --structure S' records \
                one. With --json: an array of {nodeId, vendorId, productId, available, label}, label null \
                when the device has none.

                Exit status: 0; 1 an unknown structure; 64 --unclaimed with --structure; 69 no tbrd (or, \
                with --unclaimed, no Matter commissioner or one tbrd cannot reach); 77 not allowed.
                """)
        static let arguments: [ArgumentSpec] = [
            .option("structure", valueName: "STRUCTURE", help: "Only this structure's nodes."),
            .flag("unclaimed", help: "The commissioner's nodes that no structure holds."),
        ]

        let structure: String?
        let unclaimed: Bool

        init(_ values: ParsedValues) throws(UsageError) {
            structure = values.string("structure")
            unclaimed = values.flag("unclaimed")
            if unclaimed, structure != nil { throw UsageError("--unclaimed lists nodes no structure holds: leave out --structure") }
        }

        func run(in context: CommandContext) async throws -> ExitCode {
            if unclaimed { return try await listUnclaimed(context) }
            let rows = try await RouterSession.withTbrd(context, for: "'matter nodes'") { tbrd in
                var rows: [MatterNodeView] = []
                let entries: [(path: ObjectPath, name: String)]
                if let structure {
                    entries = [(try await tbrd.structurePath(structure), structure)]
                } else {
                    entries = try await tbrd.structureEntries()
                }
                for entry in entries {
                    rows += try await tbrd.matterNodes(at: entry.path, structure: entry.name).map { MatterNodeView(structure: entry.name, $0) }
                }
                return rows
            }
            if context.json {
                try context.writeJSON(rows)
            } else if rows.isEmpty {
                context.write(structure.map { "no Matter nodes in \(Quoted($0))" } ?? "no Matter nodes")
            } else {
                context.write(
                    TextTable.render(
                        header: ["STRUCTURE", "NODE", "NAME", "ROOM", "VENDOR", "PRODUCT", "COMMISSIONED"],
                        rows: rows.map {
                            [$0.structure, String($0.nodeId), $0.name ?? "-", $0.room ?? "-", $0.vendorId.map(CommissioningLine.hex) ?? "-",
                             $0.productId.map(CommissioningLine.hex) ?? "-", $0.commissionedAt.description]
                        }))
            }
            return .success
        }

        private func listUnclaimed(_ context: CommandContext) async throws -> ExitCode {
            let rows = try await RouterSession.withTbrd(context, for: "'matter nodes --unclaimed'") { tbrd in
                try await tbrd.unclaimedMatterNodes().map(UnclaimedNodeView.init)
            }
            if context.json {
                try context.writeJSON(rows)
            } else if rows.isEmpty {
                context.write("the commissioner has no node that no structure holds")
            } else {
                context.write(
                    TextTable.render(
                        header: ["NODE", "VENDOR", "PRODUCT", "AVAILABLE", "LABEL"],
                        rows: rows.map {
                            [String($0.nodeId), $0.vendorId.map(CommissioningLine.hex) ?? "-", $0.productId.map(CommissioningLine.hex) ?? "-",
                             $0.available ? "yes" : "no", $0.label ?? "-"]
                        }))
            }
            return .success
        }
    }
}

/// One node of `tbrctl matter nodes`: `{structure, nodeId, vendorId, productId, commissionedAt, name, room}`.
struct MatterNodeView: Sendable, Hashable, Encodable {
    var structure: String
    var nodeId: UInt64
    var vendorId: UInt16?
    var productId: UInt16?
    var commissionedAt: WallTime
    var name: String?
    var room: String?

    init(structure: String, _ row: MatterNodeRow) {
        self.structure = structure
        nodeId = row.nodeId
        vendorId = row.vendorId == 0 ? nil : row.vendorId
        productId = row.productId == 0 ? nil : row.productId
        commissionedAt = WallTime(milliseconds: row.commissionedAt)
        name = row.name.isEmpty ? nil : row.name
        room = row.room.isEmpty ? nil : row.room
    }

    private enum CodingKeys: String, CodingKey { case structure, nodeId, vendorId, productId, commissionedAt, name, room }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(structure, forKey: .structure)
        try c.encode(nodeId, forKey: .nodeId)
        try c.encode(vendorId, forKey: .vendorId)
        try c.encode(productId, forKey: .productId)
        try c.encode(commissionedAt.description, forKey: .commissionedAt)
        try c.encode(name, forKey: .name)
        try c.encode(room, forKey: .room)
    }
}

/// One node of `tbrctl matter nodes --unclaimed`: `{nodeId, vendorId, productId, available, label}`.
struct UnclaimedNodeView: Sendable, Hashable, Encodable {
    var nodeId: UInt64
    var vendorId: UInt16?
    var productId: UInt16?
    var available: Bool
    var label: String?

    init(_ row: UnclaimedMatterNodeRow) {
        nodeId = row.nodeId
        vendorId = row.vendorId == 0 ? nil : row.vendorId
        productId = row.productId == 0 ? nil : row.productId
        available = row.available
        label = row.label.isEmpty ? nil : row.label
    }

    private enum CodingKeys: String, CodingKey { case nodeId, vendorId, productId, available, label }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(nodeId, forKey: .nodeId)
        try c.encode(vendorId, forKey: .vendorId)
        try c.encode(productId, forKey: .productId)
        try c.encode(available, forKey: .available)
        try c.encode(label, forKey: .label)
    }
}
