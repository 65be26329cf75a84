import TBRCommandLine
import TBRFoundation

extension Structure.Room {
    /// `tbrctl structure room remove STRUCTURE ROOM`: removes a room that holds no Matter node.
    struct Remove: ControlCommand {
        static let configuration = CommandConfiguration(
            name: "remove",
            abstract: "Remove a room from a structure (it must hold no Matter node).",
            discussion: """
                A room that still holds Matter nodes is not removed: the error names them; move them \
                ('tbrctl matter move NODE --room OTHER' or '--no-room') or remove them first. With --json: \
                the structure's rooms afterwards, an array of names.

                Exit status: 0; 1 an unknown structure, or the room holds nodes; 65 a room the structure \
                lacks; 69 no tbrd; 77 not allowed.
                """)
        static let arguments: [ArgumentSpec] = [
            .positional("structure", valueName: "STRUCTURE", help: "The structure's name."),
            .positional("room", valueName: "ROOM", help: "The room's name."),
        ]

        let structure: String
        let room: String

        init(_ values: ParsedValues) throws(UsageError) {
            structure = try values.required("structure")
            room = try values.required("room")
        }

        func run(in context: CommandContext) async throws -> ExitCode {
            let rooms = try await RouterSession.withTbrd(context, for: "'structure room remove'") { tbrd in
                let path = try await tbrd.structurePath(structure)
                try await tbrd.removeRoom(room, at: path, structure: structure)
                return try await tbrd.rooms(at: path, structure: structure)
            }
            if context.json {
                try context.writeJSON(rooms)
            } else {
                context.write("removed room \(Quoted(room)) from structure \(Quoted(structure))")
            }
            return .success
        }
    }
}
