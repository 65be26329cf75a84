import BorderRouterService
import DBus
import TBRCommandLine
import TBRDBusAPI
import TBRDocuments
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
