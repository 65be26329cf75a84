import TBRCommandLine
import TBRFoundation

extension Structure.Room {
    /// `tbrctl structure room list STRUCTURE`: the rooms of a structure.
    struct List: ControlCommand {
        static let configuration = CommandConfiguration(
            name: "list",
            abstract: "List the rooms of a structure.",
            discussion: """
                One room per line, by name. With --json: an array of the names.

                Exit status: 0; 1 an unknown structure; 69 no tbrd; 77 not allowed.
                """)
        static let arguments: [ArgumentSpec] = [
            .positional("structure", valueName: "STRUCTURE", help: "The structure's name.")
        ]

        let structure: String

        init(_ values: ParsedValues) throws(UsageError) { structure = try values.required("structure") }

        func run(in context: CommandContext) async throws -> ExitCode {
            let rooms = try await RouterSession.withTbrd(context, for: "'structure room list'") { tbrd in
                try await tbrd.rooms(at: try await tbrd.structurePath(structure), structure: structure)
            }
            if context.json {
                try context.writeJSON(rooms)
            } else if rooms.isEmpty {
                context.write("structure \(Quoted(structure)) has no rooms")
            } else {
                for room in rooms { context.write(Quoted.sanitized(room)) }
            }
            return .success
        }
    }
}
