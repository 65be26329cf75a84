import TBRCommandLine

extension API {
    /// `tbrctl api info`: where the HTTPS API listens and its certificate's fingerprint.
    struct Info: ControlCommand {
        static let configuration = CommandConfiguration(
            name: "info",
            abstract: "Show where the HTTPS API listens and its certificate's SHA-256 fingerprint.",
            discussion: """
                The API is off until http-listen is set in tbrd.conf (docs/http-api.md). A client pins the \
                certificate by the fingerprint shown here (64 hex digits); tbrd also publishes it over mDNS as \
                _tbrd._tcp, TXT fp=. On a loopback address the API speaks plain HTTP and has no fingerprint. With \
                --json: {"listen", "certificateSha256"}, null where there is none. Exit status: 0, 69 tbrd is \
                not running.
                """)
        static let arguments: [ArgumentSpec] = []

        init(_ values: ParsedValues) throws(UsageError) {}

        func run(in context: CommandContext) async throws -> ExitCode {
            let info = try await RouterSession.withTbrd(context, for: "'api info'") { try await $0.apiInfo() }
            if context.json {
                try context.writeJSON(info)
            } else if let listen = info.listen {
                context.write("listening on \(listen) (\(info.certificateSha256 == nil ? "plain HTTP, loopback only" : "TLS"))")
                if let fp = info.certificateSha256 { context.write("certificate SHA-256 \(fp)") }
            } else {
                context.write("the HTTPS API is off (set http-listen in tbrd.conf)")
            }
            return .success
        }
    }
}
