import TBRCommandLine
import TBRFoundation

extension Structure {
    /// `tbrctl structure delete NAME --yes`: deletes a structure; its routers become unassigned.
    struct Delete: ControlCommand {
        static let configuration = CommandConfiguration(
            name: "delete",
            abstract: "Delete a structure (its routers stay, unassigned).",
            discussion: """
                Its settings go with it. Asks for --yes because it cannot be undone. An unknown structure \
                exits 1.
                """)
        static let arguments: [ArgumentSpec] = [
            .positional("name", valueName: "STRUCTURE", help: "The structure's name."),
            .flag("yes", help: "Confirm the deletion."),
        ]

        /// The name.
        let name: String
        /// `--yes`.
        let confirmed: Bool

        init(_ values: ParsedValues) throws(UsageError) {
            name = try values.required("name")
            confirmed = values.flag("yes")
        }

        func validate() throws(UsageError) {
            guard confirmed else {
                throw UsageError("deleting structure \(Quoted(name)) drops its settings and cannot be undone; add --yes to confirm")
            }
        }

        func run(in context: CommandContext) async throws -> ExitCode {
            try await RouterSession.withTbrd(context, for: "'structure delete'") { tbrd in
                try await tbrd.deleteStructure(name)
            }
            if context.json {
                try context.writeJSON(["deleted": name])
            } else {
                context.write("deleted structure \(name)")
            }
            return .success
        }
    }
}
