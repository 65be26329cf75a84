import TBRCommandLine

extension Router {
    /// `tbrctl router add URL [--id ID]`: manage the otbr-agent whose REST API answers at URL.
    struct Add: ControlCommand {
        static let configuration = CommandConfiguration(
            name: "add",
            abstract: "Add the border router whose otbr-agent REST API answers at URL.",
            discussion: """
                URL is the agent's REST API, e.g. http://192.0.2.10:8081 (otbr-agent --rest-listen-address and \
                --rest-listen-port; it listens on 127.0.0.1:8081 unless told otherwise). Only http and https, with a \
                host and no user information. tbrd checks that an otbr-agent answers there \
                (/.well-known/thread/br-rest, else /node/ba-id), reads its Border Agent ID and remembers the router \
                across restarts; tbrd never adds one by itself. The id defaults to ba- and the first 8 hex digits of \
                the Border Agent ID.

                Warning: otbr-agent's REST API has no authentication and no TLS of its own. Whoever reaches its port \
                can read the network key and start ePSKc keys; expose it only on a network you trust.

                Needs root or group tbrd-admin. Exit status: 0 added, 65 a URL or id that cannot be used, 69 nothing \
                answered at URL in time, 1 something else answered, or the agent is already a router tbrd knows.
                """)
        static let arguments: [ArgumentSpec] = [
            .positional("url", valueName: "URL", help: "The agent's REST API, e.g. http://192.0.2.10:8081."),
            .option("id", valueName: "ID", help: "The router's id (1-64 letters, digits, '-', '_', '.'); default ba-XXXXXXXX."),
        ]

        /// The URL as given.
        let url: String
        /// The id as given; empty: tbrd's default.
        let id: String

        init(_ values: ParsedValues) throws(UsageError) {
            url = try values.required("url")
            id = values.string("id") ?? ""
        }

        func run(in context: CommandContext) async throws -> ExitCode {
            let added = try await RouterSession.withTbrd(context, for: "'router add'") { tbrd in
                try await tbrd.addRemoteRouter(url: url, id: id)
            }
            if context.json {
                try context.writeJSON(added)
            } else {
                context.write("added border router \(added.id) at \(added.address) (Border Agent ID \(added.borderAgentId))")
            }
            return .success
        }
    }
}
