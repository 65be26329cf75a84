import MatterOnboarding
import TBRCommandLine
import TBRFoundation

extension Matter {
    /// `tbrctl matter remove NODE [--force]`: removes a node from the commissioner's fabric and forgets it.
    struct Remove: ControlCommand {
        static let configuration = CommandConfiguration(
            name: "remove",
            abstract: "Remove a Matter node of a structure from the fabric and forget it.",
            discussion: """
                NODE is a node ID as 'tbrctl matter nodes' lists it: only a node a structure holds can be \
                removed. tbrd first checks that the device answers, then asks its commissioner to remove it \
                from the fabric (python-matter-server's remove_node, which also tells the device to leave) \
                and forgets it. A device that does not answer is not removed (exit 1): it would go on \
                believing it is on the fabric. --force removes it anyway (and forgets a node the \
                commissioner no longer knows); the device then needs a factory reset before it can be \
                commissioned again.

                With --json: {nodeId, structure, forced}.

                Exit status: 0; 1 the node is not recorded in any structure, the device does not answer \
                (without --force), or the commissioner refused; 64 a bad NODE; 69 no tbrd, tbrd has no \
                Matter commissioner or cannot reach it; 77 not allowed.
                """)
        static let arguments: [ArgumentSpec] = [
            .flag("force", help: "Remove the node even when the device does not answer."),
            .positional("node", valueName: "NODE", help: "The node ID."),
        ]

        let node: NodeID
        let force: Bool

        init(_ values: ParsedValues) throws(UsageError) {
            node = try values.required("node", MatterArguments.nodeID)
            force = values.flag("force")
        }

        func run(in context: CommandContext) async throws -> ExitCode {
            let structure = try await RouterSession.withTbrd(context, for: "'matter remove'") { tbrd in
                let holder = try await tbrd.structureHolding(node)
                try await tbrd.removeMatterNode(node, force: force, at: holder.path)
                return holder.name
            }
            if context.json {
                try context.writeJSON(RemovedNodeView(nodeId: node.rawValue, structure: structure, forced: force))
            } else {
                context.write("removed node \(node) from structure \(Quoted(structure)) and from the fabric" + (force ? " (forced)" : ""))
            }
            return .success
        }
    }
}

/// `tbrctl matter remove`'s document.
struct RemovedNodeView: Sendable, Hashable, Encodable {
    var nodeId: UInt64
    var structure: String
    var forced: Bool
}
