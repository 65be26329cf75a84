import TBRCommandLine

extension Structure {
    /// `tbrctl structure remove STRUCTURE ROUTER`: takes a border router out of a structure.
    struct Remove: ControlCommand {
        static let configuration = CommandConfiguration(
            name: "remove",
            abstract: "Remove a border router from a structure.",
            discussion: "ROUTER takes the forms -d takes. The router stays known to tbrd. Prints the structure.")
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
            let (id, view) = try await RouterSession.withTbrd(context, for: "'structure remove'") { tbrd in
                let ref = try await tbrd.lookUp(router)
                try await tbrd.removeBorderRouter(ref, from: structure)
                return (ref.id, try await tbrd.structure(named: structure))
            }
            if context.json { try context.writeJSON(view) } else { context.write("removed \(id) from structure \(view.name)") }
            return .success
        }
    }
}
