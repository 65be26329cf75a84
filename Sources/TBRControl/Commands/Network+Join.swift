import FoundationEssentials
import TBRFoundation
import MeshCoP
import TBRCommandLine

extension Network {
    /// `tbrctl network join [-d ROUTER] (--dataset HEX | --dataset-file FILE) [--this-router-only]`: joins a border router
    /// (and, when it is on another network, its whole mesh) to the network of a dataset.
    struct Join: ControlCommand {
        static let configuration = CommandConfiguration(
            name: "join",
            abstract: "Join a border router to the network of an active dataset.",
            discussion: """
                The dataset is checked here first: a dataset that is not a valid, complete Active dataset \
                exits 65 listing every problem, and nothing is sent. A router without a network joins it; \
                a router already on it changes nothing; a router on another network moves its whole mesh \
                there, after the delay otbr-agent reports (usually 300 s), unless --this-router-only moves \
                just this router (its mesh stays behind).
                """)
        static let arguments: [ArgumentSpec] = [
            .router,
            DatasetSource.hex, DatasetSource.file,
            .flag("this-router-only", help: "Move only this router, not its whole mesh, when it is on another network."),
        ]

        /// `-d`: the router as given.
        let router: String?
        /// `--dataset`.
        let hex: String?
        /// `--dataset-file`.
        let file: String?
        /// `--this-router-only`.
        let thisRouterOnly: Bool

        init(_ values: ParsedValues) {
            router = values.string(ArgumentSpec.router.name)
            (hex, file) = DatasetSource.values(values)
            thisRouterOnly = values.flag("this-router-only")
        }

        func validate() throws(UsageError) { try DatasetSource.check(hex: hex, file: file) }

        func run(in context: CommandContext) async throws -> ExitCode {
            let tlvs = try context.datasetBytes(hex: hex, file: file)
            let problems = OperationalDataset.validate(bytes: tlvs, as: .active)
            guard problems.isEmpty else {
                let lines = problems.map { "  " + $0.description }.joined(separator: "\n")
                throw ControlError.dataError("the dataset is not a valid complete Active dataset; nothing was sent:\n\(lines)")
            }
            let network = (try? OperationalDataset(bytes: tlvs)).flatMap { $0.networkName?.rawValue } ?? "the network"
            let (id, result) = try await RouterSession.withBackend(context) { backend in
                let ref = try await backend.resolve(router)
                return (ref.id, try await backend.joinNetwork(on: ref, tlvs: tlvs, thisRouterOnly: thisRouterOnly))
            }
            let status = ErrorMapping.exitCode(networkStatus: result.status)
            if context.json {
                try context.writeJSON(result)
            } else if status == .success {
                context.write(
                    result.migrationDelaySeconds > 0
                        ? "\(id)'s whole network moves to \(network) in \(result.migrationDelaySeconds) s"
                        : "\(id) is on \(network)")
            }
            if status != .success {
                throw ControlError(exitCode: status, message: result.message ?? "JoinNetwork on \(id): \(result.status)")
            }
            return .success
        }
    }
}
