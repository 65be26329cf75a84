import TBRCommandLine

extension Structure {
    /// `tbrctl structure add STRUCTURE ROUTER`: puts a border router in a structure.
    struct Add: ControlCommand {
        static let configuration = CommandConfiguration(
            name: "add",
            abstract: "Add a border router to a structure.",
            discussion: """
                ROUTER takes the forms -d takes: a tbrd router id, an interface name or a Border Agent ID. \
                A router belongs to at most one structure. Prints the structure.
                """)
        static let arguments: [ArgumentSpec] = [
            .positional("structure", valueName: "STRUCTURE", help: "The structure's name."),
            .positional("member", valueName: "ROUTER", help: "The border router: id, interface name or Border Agent ID."),
        ]

        /// The structure's name.
        let structure: String
        /// The router as given.
        let router: String

        init(_ values: ParsedValues) throws(UsageError) {
            structure = try values.required("structure")
            router = try values.required("member")
        }

        func run(in context: CommandContext) async throws -> ExitCode {
            let (id, view) = try await RouterSession.withTbrd(context, for: "'structure add'") { tbrd in
                let ref = try await tbrd.lookUp(router)
                try await tbrd.addBorderRouter(ref, to: structure)
                return (ref.id, try await tbrd.structure(named: structure))
            }
            if context.json { try context.writeJSON(view) } else { context.write("added \(id) to structure \(view.name)") }
            return .success
        }
    }
}
