import TBRCommandLine

extension Structure {
    /// `tbrctl structure create NAME`: a new, empty structure.
    struct Create: ControlCommand {
        static let configuration = CommandConfiguration(
            name: "create",
            abstract: "Create an empty structure.",
            discussion: "tbrd refuses an empty name or one already taken (65). Prints the new structure.")
        static let arguments: [ArgumentSpec] = [
            .positional("name", valueName: "NAME", help: "The structure's name, e.g. Home."),
        ]

        /// The name.
        let name: String

        init(_ values: ParsedValues) throws(UsageError) {
            name = try values.required("name")
        }

        func validate() throws(UsageError) {
            if name.allSatisfy(\.isWhitespace) { throw UsageError("a structure name cannot be empty") }
        }

        func run(in context: CommandContext) async throws -> ExitCode {
            let structure = try await RouterSession.withTbrd(context, for: "'structure create'") { tbrd in
                try await tbrd.createStructure(name)
            }
            if context.json { try context.writeJSON(structure) } else { context.write("created structure \(structure.name)") }
            return .success
        }
    }
}
