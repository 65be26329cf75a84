import TBRCommandLine

extension EPSKc {
    /// `tbrctl epskc deactivate [-d ROUTER] [--retain-session]`: ends a border router's ephemeral key.
    struct Deactivate: BlockingControlCommand {
        static let configuration = CommandConfiguration(
            name: "deactivate",
            abstract: "End the ePSKc of a border router.",
            discussion: """
                Ends the active ephemeral key (its session ends as 'cancelled'); succeeds when no key is \
                active. With --retain-session a commissioner already connected with the key keeps its \
                session, and the key ends when it disconnects.
                """)
        static let arguments: [ArgumentSpec] = [
            .router,
            .flag("retain-session", help: "Let a commissioner already connected with the key keep its session."),
        ]

        /// `-d`: the router as given.
        let router: String?
        /// Whether a connected commissioner keeps its session.
        let retainSession: Bool

        init(_ values: ParsedValues) {
            router = values.string(ArgumentSpec.router.name)
            retainSession = values.flag("retain-session")
        }

        /// The JSON output.
        struct Output: Encodable {
            var router: String
            var status: String
        }

        func run(in context: CommandContext) async throws -> ExitCode {
            let id = try await RouterSession.withBackend(context) { backend in
                let ref = try await backend.resolve(router)
                try await backend.deactivateEpskc(on: ref, retainSession: retainSession)
                return ref.id
            }
            return try report(on: id, in: context)
        }

        /// Through tbrd, on the calling thread (``BlockingTbrd``); nil when tbrd is not on the bus or
        /// `-d` needs a lookup.
        func runBlocking(in context: CommandContext) throws -> ExitCode? {
            guard let (ref, _) = try BlockingTbrd.perform(.deactivateEpskc(retainSession: retainSession), on: router, context)
            else { return nil }
            return try report(on: ref.id, in: context)
        }

        /// Says that the ePSKc of router `id` ended.
        private func report(on id: String, in context: CommandContext) throws -> ExitCode {
            if context.json {
                try context.writeJSON(Output(router: id, status: "success"))
            } else {
                context.write(
                    retainSession
                        ? "ePSKc of \(id) deactivated; a commissioner already connected keeps its session"
                        : "ePSKc of \(id) deactivated")
            }
            return .success
        }
    }
}
