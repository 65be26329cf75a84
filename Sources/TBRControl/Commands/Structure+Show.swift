import TBRDocuments
import TBRCommandLine
import TBRDBusAPI

extension Structure {
    /// `tbrctl structure show STRUCTURE`: a structure's border routers and settings.
    struct Show: ControlCommand {
        static let configuration = CommandConfiguration(
            name: "show",
            abstract: "Show a structure's border routers, settings and the internet-access policy's state on each router.",
            discussion: """
                With --json: {name, routers, settings: {internetAccessOption, defaultThreadNetworkId}, \
                policy: [{id, state, detail}]}, routers as ids and the default network null when none is set; \
                once the structure has had a migration or channel change, also migration (as 'structure \
                migrate --json' prints it), with the time left per router while it is pending.
                """)
        static let arguments: [ArgumentSpec] = [
            .positional("structure", valueName: "STRUCTURE", help: "The structure's name."),
        ]

        /// The structure's name.
        let structure: String

        init(_ values: ParsedValues) throws(UsageError) {
            structure = try values.required("structure")
        }

        /// The structure's view, with its migration once it had one.
        struct Output: Encodable {
            var view: StructureView
            var migration: MigrationRow?

            private enum Key: String, CodingKey { case migration }

            func encode(to encoder: any Encoder) throws {
                try view.encode(to: encoder)
                if let migration {
                    var c = encoder.container(keyedBy: Key.self)
                    try c.encode(migration, forKey: .migration)
                }
            }
        }

        func run(in context: CommandContext) async throws -> ExitCode {
            let (view, migration) = try await RouterSession.withTbrd(context, for: "'structure show'") { tbrd in
                (try await tbrd.structure(named: structure), try await tbrd.migration(of: structure))
            }
            let shown = migration.state == .none ? nil : migration
            if context.json {
                try context.writeJSON(Output(view: view, migration: shown))
            } else {
                let text = view.render()
                context.write(shown.map { text + "\n\n" + MigrationText.render($0, structure: structure, now: context.clock.wallTime()) } ?? text)
            }
            return .success
        }
    }
}
