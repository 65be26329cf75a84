import MeshCoP
import TBRCommandLine

extension Dataset {
    /// `tbrctl dataset decode HEX|-`: shows what a dataset contains, secrets redacted unless asked.
    struct Decode: ControlCommand {
        static let configuration = CommandConfiguration(
            name: "decode",
            abstract: "Show the TLVs of an operational dataset.",
            discussion: """
                Decodes the dataset strictly and prints one TLV per line (or the JSON form with --json). \
                The network key and PSKc are shown as <redacted> unless --reveal-secrets is given. A \
                malformed dataset exits 65 with the first problem; 'tbrctl dataset validate' lists them all.
                """)
        static let arguments: [ArgumentSpec] = [.datasetInput, .revealSecrets]

        /// The dataset as given: hex, or `-` for standard input.
        let input: String
        /// Whether to print the network key and PSKc.
        let revealSecrets: Bool

        init(_ values: ParsedValues) throws(UsageError) {
            input = try values.required(ArgumentSpec.datasetInput.name)
            revealSecrets = values.flag(ArgumentSpec.revealSecrets.name)
        }

        func run(in context: CommandContext) async throws -> ExitCode {
            let bytes = try context.bytes(fromHexArgument: input, describing: "the dataset")
            let dataset: OperationalDataset
            do {
                dataset = try OperationalDataset(bytes: bytes)
            } catch {
                throw ControlError.dataError(error.description)
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
