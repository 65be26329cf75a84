import TBRCommandLine

extension Router {
    /// `tbrctl router remove ROUTER`: forget a border router on another host.
    struct Remove: ControlCommand {
        static let configuration = CommandConfiguration(
            name: "remove",
            abstract: "Forget a border router on another host (added with 'router add').",
            discussion: """
                ROUTER takes the forms -d takes. The router is taken out of its structure first; its ePSKc journal \
                stays. The agent itself is not touched: a key it has keeps running until it ends. Routers on this \
                host's bus cannot be removed: tbrd follows them as long as their otbr-agent runs.

                Needs root or group tbrd-admin. Exit status: 0 removed, 1 no such router, 65 a router on this host.
                """)
        static let arguments: [ArgumentSpec] = [
            .positional("router", valueName: "ROUTER", help: "The border router: id, or Border Agent ID."),
        ]

        /// The router as given.
        let router: String

        init(_ values: ParsedValues) throws(UsageError) {
            router = try values.required("router")
        }

        func run(in context: CommandContext) async throws -> ExitCode {
            let id = try await RouterSession.withTbrd(context, for: "'router remove'") { tbrd in
                let ref = try await tbrd.lookUp(router)
                try await tbrd.removeRemoteRouter(ref)
                return ref.id
            }
            if context.json { try context.writeJSON(["removed": id]) } else { context.write("removed border router \(id)") }
            return .success
        }
    }
}
