import TBRCommandLine

/// `tbrctl info [-d ROUTER]`: basic information, capabilities and network of one border router.
struct Info: ControlCommand {
    static let configuration = CommandConfiguration(
        name: "info",
        abstract: "Show a border router's basic information, capabilities and network.",
        discussion: """
            Shows who made the router and what it runs (Matter BasicInformation), whether it supports \
            ePSKc and what internet access it can give (ThreadNetworkCapabilities), and its role and \
            network. Without tbrd the vendor and product names are unknown (they come from mDNS).
            """)
    static let arguments: [ArgumentSpec] = [.router]

    /// `-d`: the router as given.
    let router: String?

    init(_ values: ParsedValues) {
        router = values.string(ArgumentSpec.router.name)
    }

    func run(in context: CommandContext) async throws -> ExitCode {
        let info = try await RouterSession.withBackend(context) { backend in
            try await backend.info(of: try await backend.resolve(router))
        }
        if context.json { try context.writeJSON(info) } else { context.write(info.render()) }
        return .success
    }
}
