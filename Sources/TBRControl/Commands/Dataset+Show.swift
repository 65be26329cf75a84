import MeshCoP
import TBRCommandLine

extension Dataset {
    /// `tbrctl dataset show [-d ROUTER] [--pending] [--reveal-secrets]`: a border router's active (or
    /// pending) dataset.
    struct Show: ControlCommand {
        static let configuration = CommandConfiguration(
            name: "show",
            abstract: "Show a border router's active (or pending) dataset.",
            discussion: """
                Reads the dataset from the router and prints one TLV per line, like 'tbrctl dataset \
                decode' (or its JSON form with --json). The network key and PSKc are <redacted> unless \
                --reveal-secrets is given. Exits 1 when the router has no such dataset. Through tbrd, \
                reading a dataset needs root or group tbrd-admin.
                """)
        static let arguments: [ArgumentSpec] = [
            .router,
            .flag("pending", help: "Show the pending dataset instead of the active one."),
            .revealSecrets,
        ]

        /// `-d`: the router as given.
        let router: String?
        /// `--pending`.
        let pending: Bool
        /// Whether to print the network key and PSKc.
        let revealSecrets: Bool

        init(_ values: ParsedValues) {
            router = values.string(ArgumentSpec.router.name)
            pending = values.flag("pending")
            revealSecrets = values.flag(ArgumentSpec.revealSecrets.name)
        }

        func run(in context: CommandContext) async throws -> ExitCode {
            let kind = pending ? "pending" : "active"
            let (id, tlvs) = try await RouterSession.withBackend(context) { backend in
                let ref = try await backend.resolve(router)
                return (ref.id, try await backend.dataset(of: ref, pending: pending))
            }
            guard let tlvs else { throw ControlError.failure("\(id) has no \(kind) dataset") }
            let dataset: OperationalDataset
            do { dataset = try OperationalDataset(bytes: tlvs) } catch {
                throw ControlError.failure("the \(kind) dataset of \(id) does not decode: \(error)")
            }
            if context.json {
                try context.writeJSON(dataset, revealSecrets: revealSecrets)
            } else {
                context.write(dataset.render(revealSecrets: revealSecrets))
            }
            return .success
        }
    }
}
