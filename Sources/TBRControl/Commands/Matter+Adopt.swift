import MatterOnboarding
import TBRCommandLine
import TBRDocuments
import TBRFoundation

extension Matter {
    /// `tbrctl matter adopt NODE --structure S`: records a node of the commissioner that no structure holds.
    struct Adopt: ControlCommand {
        static let configuration = CommandConfiguration(
            name: "adopt",
            abstract: "Record in a structure a node of the commissioner that no structure holds.",
            discussion: """
                NODE is a node ID as 'tbrctl matter nodes --unclaimed' lists it: a node the Matter \
                commissioner (python-matter-server) has that no structure of tbrd's holds. On a server shared \
                with another controller (Home Assistant) those are mostly the other controller's devices: \
                adopt only what is yours, such as a device whose commissioning ended with "outcome unknown". \
                Nothing is sent to the device; its NodeLabel, when it has one, becomes its name.

                With --json: the node as 'tbrctl matter nodes --json' shows it.

                Exit status: 0; 1 the commissioner has no such node, a structure already holds it, or the \
                structure is unknown; 64 a bad NODE; 69 no tbrd, tbrd has no Matter commissioner or cannot \
                reach it; 77 not allowed.
                """)
        static let arguments: [ArgumentSpec] = [
            .option("structure", valueName: "STRUCTURE", help: "The structure to record the node in.", required: true),
            .positional("node", valueName: "NODE", help: "The node ID."),
        ]

        let node: NodeID
        let structure: String

        init(_ values: ParsedValues) throws(UsageError) {
            node = try values.required("node", MatterArguments.nodeID)
            structure = try values.required("structure")
        }

        func run(in context: CommandContext) async throws -> ExitCode {
            let view = try await RouterSession.withTbrd(context, for: "'matter adopt'") { tbrd in
                let path = try await tbrd.structurePath(structure)
                try await tbrd.adoptMatterNode(node, at: path, structure: structure)
                guard let row = try await tbrd.matterNodes(at: path, structure: structure).first(where: { $0.nodeId == node.rawValue }) else {
                    throw ControlError.failure("node \(node) was adopted but is not listed in \(Quoted(structure)) any more")
                }
                return MatterNodeView(structure: structure, row)
            }
            if context.json {
                try context.writeJSON(view)
            } else {
                context.write("adopted node \(node) into structure \(Quoted(structure))" + (view.name.map { " as \(Quoted($0))" } ?? ""))
            }
            return .success
        }
    }
}
