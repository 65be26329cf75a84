import TBRCommandLine

extension Structure {
    /// `tbrctl structure list`: every structure with its routers and settings.
    struct List: ControlCommand {
        static let configuration = CommandConfiguration(
            name: "list",
            abstract: "List the structures with their border routers and settings.",
            discussion: "With --json: an array of the objects 'tbrctl structure show' prints.")

        init(_ values: ParsedValues) {}

        func run(in context: CommandContext) async throws -> ExitCode {
            let structures = try await RouterSession.withTbrd(context, for: "'structure list'") { tbrd in
                try await tbrd.structures()
            }
            if context.json {
                try context.writeJSON(structures)
            } else if structures.isEmpty {
                context.write("no structures; create one with 'tbrctl structure create NAME'")
            } else {
                context.write(
                    TextTable.render(
                        header: ["NAME", "BORDER ROUTERS", "INTERNET ACCESS", "DEFAULT NETWORK"],
                        rows: structures.map {
                            [
                                $0.name, $0.routers.isEmpty ? "-" : $0.routers.joined(separator: ","),
                                $0.settings.internetAccessOption, $0.settings.defaultThreadNetworkId.orDash,
                            ]
                        }))
            }
            return .success
        }
    }
}
