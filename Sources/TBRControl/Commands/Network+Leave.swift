import TBRCommandLine

extension Network {
    /// `tbrctl network leave [-d ROUTER] --yes`: makes a border router leave and forget its network.
    struct Leave: ControlCommand {
        static let configuration = CommandConfiguration(
            name: "leave",
            abstract: "Make a border router leave and forget its network (needs --yes).",
            discussion: """
                The router erases its network (dataset and network key) and otbr-agent restarts; the \
                command returns when the agent is back. Devices that only know this router lose the \
                network. Nothing happens without --yes.
                """)
        static let arguments: [ArgumentSpec] = [
            .router,
            .flag("yes", help: "Confirm: the router forgets its network."),
        ]

        /// `-d`: the router as given.
        let router: String?
        /// `--yes`.
        let confirmed: Bool

        init(_ values: ParsedValues) {
            router = values.string(ArgumentSpec.router.name)
            confirmed = values.flag("yes")
        }

        func validate() throws(UsageError) {
            guard confirmed else {
                throw UsageError(
                    "'network leave' makes the router forget its network (its dataset and network key) and restart otbr-agent; add --yes to confirm")
            }
        }

        /// The JSON output.
        struct Output: Encodable {
            var router: String
            var status: String
        }

        func run(in context: CommandContext) async throws -> ExitCode {
            let id = try await RouterSession.withBackend(context) { backend in
                let ref = try await backend.resolve(router)
                try await backend.leaveNetwork(on: ref)
                return ref.id
            }
            if context.json {
                try context.writeJSON(Output(router: id, status: "success"))
            } else {
                context.write("\(id) left its network")
            }
            return .success
        }
    }
}
