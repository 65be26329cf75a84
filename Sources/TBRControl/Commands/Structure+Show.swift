import TBRCommandLine

extension Structure {
    /// `tbrctl structure show STRUCTURE`: a structure's border routers and settings.
    struct Show: ControlCommand {
        static let configuration = CommandConfiguration(
            name: "show",
            abstract: "Show a structure's border routers, settings and the internet-access policy's state on each router.",
            discussion: """
                With --json: {name, routers, settings: {internetAccessOption, defaultThreadNetworkId}, \
                policy: [{id, state, detail}]}, routers as ids and the default network null when none is set.
                """)
        static let arguments: [ArgumentSpec] = [
            .positional("structure", valueName: "STRUCTURE", help: "The structure's name."),
        ]

        /// The structure's name.
        let structure: String

        init(_ values: ParsedValues) throws(UsageError) {
            structure = try values.required("structure")
        }

        func run(in context: CommandContext) async throws -> ExitCode {
            let view = try await RouterSession.withTbrd(context, for: "'structure show'") { tbrd in
                try await tbrd.structure(named: structure)
            }
            if context.json { try context.writeJSON(view) } else { context.write(view.render()) }
            return .success
        }
    }
}
