import TBRCommandLine
import TBRFoundation

extension Structure.Room {
    /// `tbrctl structure room add STRUCTURE ROOM`: adds a room to a structure.
    struct Add: ControlCommand {
        static let configuration = CommandConfiguration(
            name: "add",
            abstract: "Add a room to a structure.",
            discussion: """
                With --json: the structure's rooms afterwards, an array of names.

                Exit status: 0; 1 an unknown structure; 65 a name that breaks the rules or a room the \
                structure already has; 69 no tbrd; 77 not allowed.
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
            let rooms = try await RouterSession.withTbrd(context, for: "'structure room add'") { tbrd in
                let path = try await tbrd.structurePath(structure)
                try await tbrd.addRoom(room, at: path, structure: structure)
                return try await tbrd.rooms(at: path, structure: structure)
            }
            if context.json { try context.writeJSON(rooms) } else { context.write("added room \(Quoted(room)) to structure \(Quoted(structure))") }
            return .success
        }
    }
}
