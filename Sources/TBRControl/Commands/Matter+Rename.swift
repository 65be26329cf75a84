import MatterOnboarding
import TBRCommandLine
import TBRDBusAPI
import TBRFoundation

extension Matter {
    /// `tbrctl matter rename NODE NAME`: names a node of a structure (recorded, and written to its NodeLabel).
    struct Rename: ControlCommand {
        static let configuration = CommandConfiguration(
            name: "rename",
            abstract: "Name a Matter node; the name is recorded and written to the device's NodeLabel.",
            discussion: """
                NODE is a node ID as 'tbrctl matter nodes' lists it. NAME follows the rules of structure \
                names and is at most 32 bytes, what the device's Basic Information NodeLabel holds; an empty \
                NAME ("") removes the name. tbrd records the name, then writes it to the device through its \
                Matter commissioner. A device that refuses the label (or cannot be reached) keeps the \
                recorded name: tbrctl says so on standard error and still exits 0.

                With --json: {nodeId, structure, name, nodeLabel: "written" or "refused", labelProblem}, name \
                and labelProblem null when there is none.

                Exit status: 0 (also when the device refused the label); 1 the node is not recorded in any \
                structure; 64 a bad NODE; 65 a name that breaks the rules or is longer than 32 bytes; 69 no \
                tbrd, or tbrd has no Matter commissioner; 77 not allowed.
                """)
        static let arguments: [ArgumentSpec] = [
            .positional("node", valueName: "NODE", help: "The node ID."),
            .positional("name", valueName: "NAME", help: "The new name; \"\" for none."),
        ]

        let node: NodeID
        let name: String

        init(_ values: ParsedValues) throws(UsageError) {
            node = try values.required("node", MatterArguments.nodeID)
            name = try values.required("name")
        }

        func run(in context: CommandContext) async throws -> ExitCode {
            if !name.isEmpty, let problem = NameRules.problem(with: name, maximumBytes: TBRDBusAPI.Structure.maximumNodeNameBytes) {
                throw ControlError.dataError("\(Quoted(name)) cannot name a Matter node: \(problem)")
            }
            let view = try await RouterSession.withTbrd(context, for: "'matter rename'") { tbrd in
                let holder = try await tbrd.structureHolding(node)
                let problem = try await tbrd.renameMatterNode(node, to: name, at: holder.path)
                return RenamedNodeView(
                    nodeId: node.rawValue, structure: holder.name, name: name.isEmpty ? nil : NameRules.canonical(name),
                    nodeLabel: problem == nil ? "written" : "refused", labelProblem: problem)
            }
            if context.json {
                try context.writeJSON(view)
            } else {
                context.write(
                    view.name.map { "node \(node) of \(Quoted(view.structure)) is now named \(Quoted($0))" }
                        ?? "node \(node) of \(Quoted(view.structure)) has no name now")
            }
            if let problem = view.labelProblem { context.note("warning: \(problem)") }
            return .success
        }
    }
}

/// `tbrctl matter rename`'s document.
struct RenamedNodeView: Sendable, Hashable, Encodable {
    var nodeId: UInt64
    var structure: String
    var name: String?
    /// `written` or `refused`.
    var nodeLabel: String
    var labelProblem: String?

    private enum CodingKeys: String, CodingKey { case nodeId, structure, name, nodeLabel, labelProblem }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(nodeId, forKey: .nodeId)
        try c.encode(structure, forKey: .structure)
        try c.encode(name, forKey: .name)
        try c.encode(nodeLabel, forKey: .nodeLabel)
        try c.encode(labelProblem, forKey: .labelProblem)
    }
}
