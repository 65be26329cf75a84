import MatterOnboarding
import TBRCommandLine
import TBRFoundation

extension Matter {
    /// `tbrctl matter move NODE --room ROOM|--no-room`: places a node in a room of its structure, or in none.
    struct Move: ControlCommand {
        static let configuration = CommandConfiguration(
            name: "move",
            abstract: "Place a Matter node in a room of its structure (--room), or in none (--no-room).",
            discussion: """
                NODE is a node ID as 'tbrctl matter nodes' lists it. The room must be one of the node's \
                structure ('tbrctl structure room list'). Nothing is sent to the device.

                With --json: {nodeId, structure, room}, room null for none.

                Exit status: 0; 1 the node is not recorded in any structure; 64 a bad NODE, or neither or \
                both of --room and --no-room; 65 a room the structure lacks; 69 no tbrd; 77 not allowed.
                """)
        static let arguments: [ArgumentSpec] = [
            .option("room", valueName: "ROOM", help: "The room to place the node in."),
            .flag("no-room", help: "Place the node in no room."),
            .positional("node", valueName: "NODE", help: "The node ID."),
        ]

        let node: NodeID
        let room: String?

        init(_ values: ParsedValues) throws(UsageError) {
            node = try values.required("node", MatterArguments.nodeID)
            room = values.string("room")
            let noRoom = values.flag("no-room")
            guard (room != nil) != noRoom else { throw UsageError("give exactly one of --room ROOM and --no-room") }
        }

        func run(in context: CommandContext) async throws -> ExitCode {
            let view = try await RouterSession.withTbrd(context, for: "'matter move'") { tbrd in
                let holder = try await tbrd.structureHolding(node)
                try await tbrd.moveMatterNode(node, to: room, at: holder.path)
                return MovedNodeView(nodeId: node.rawValue, structure: holder.name, room: room.map(NameRules.canonical))
            }
            if context.json {
                try context.writeJSON(view)
            } else {
                context.write(
                    view.room.map { "node \(node) of \(Quoted(view.structure)) is now in room \(Quoted($0))" }
                        ?? "node \(node) of \(Quoted(view.structure)) is now in no room")
            }
            return .success
        }
    }
}

/// `tbrctl matter move`'s document.
struct MovedNodeView: Sendable, Hashable, Encodable {
    var nodeId: UInt64
    var structure: String
    var room: String?

    private enum CodingKeys: String, CodingKey { case nodeId, structure, room }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(nodeId, forKey: .nodeId)
        try c.encode(structure, forKey: .structure)
        try c.encode(room, forKey: .room)
    }
}
