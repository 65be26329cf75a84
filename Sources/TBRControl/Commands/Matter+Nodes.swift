import DBus
import DeviceModel
import TBRCommandLine
import TBRDBusAPI
import TBRFoundation

extension Matter {
    /// `tbrctl matter nodes [--structure S]`: the Matter nodes commissioned into each structure.
    struct Nodes: ControlCommand {
        static let configuration = CommandConfiguration(
            name: "nodes",
            abstract: "List the Matter nodes commissioned into structures (all, or one).",
            discussion: """
                tbrd records every node it commissioned (node ID, vendor and product IDs, when) in its state \
                database, per structure; they survive restarts.

                With --json: an array of {structure, nodeId, vendorId, productId, commissionedAt}, the IDs \
                numbers (vendorId and productId null when the commissioner did not read them), the time in \
                ISO 8601 UTC.

                Exit status: 0; 1 an unknown structure; 69 no tbrd; 77 not allowed.
                """)
        static let arguments: [ArgumentSpec] = [
            .option("structure", valueName: "STRUCTURE", help: "Only this structure's nodes."),
        ]

        let structure: String?

        init(_ values: ParsedValues) throws(UsageError) {
            structure = values.string("structure")
        }

        func run(in context: CommandContext) async throws -> ExitCode {
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
                        header: ["STRUCTURE", "NODE", "VENDOR", "PRODUCT", "COMMISSIONED"],
                        rows: rows.map {
                            [$0.structure, String($0.nodeId), $0.vendorId.map(CommissioningLine.hex) ?? "-",
                             $0.productId.map(CommissioningLine.hex) ?? "-", $0.commissionedAt.description]
                        }))
            }
            return .success
        }
    }
}

/// One node of `tbrctl matter nodes`: `{structure, nodeId, vendorId, productId, commissionedAt}`.
struct MatterNodeView: Sendable, Hashable, Encodable {
    var structure: String
    var nodeId: UInt64
    var vendorId: UInt16?
    var productId: UInt16?
    var commissionedAt: WallTime

    init(structure: String, _ row: MatterNodeRow) {
        self.structure = structure
        nodeId = row.nodeId
        vendorId = row.vendorId == 0 ? nil : row.vendorId
        productId = row.productId == 0 ? nil : row.productId
        commissionedAt = WallTime(milliseconds: row.commissionedAt)
    }

    private enum CodingKeys: String, CodingKey { case structure, nodeId, vendorId, productId, commissionedAt }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(structure, forKey: .structure)
        try c.encode(nodeId, forKey: .nodeId)
        try c.encode(vendorId, forKey: .vendorId)
        try c.encode(productId, forKey: .productId)
        try c.encode(commissionedAt.description, forKey: .commissionedAt)
    }
}
