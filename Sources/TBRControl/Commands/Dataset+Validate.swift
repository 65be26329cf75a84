import MeshCoP
import TBRCommandLine

extension Dataset {
    /// `tbrctl dataset validate HEX|-`: lists every problem of a dataset, or says it is complete.
    struct Validate: ControlCommand {
        static let configuration = CommandConfiguration(
            name: "validate",
            abstract: "Check that a dataset is a valid, complete Active (or Pending) dataset.",
            discussion: """
                Prints every problem on its own line, with the TLV and its byte offset, and exits 65; \
                prints that the dataset is valid and exits 0 when there is none. Checks the framing of \
                every TLV, each value, the channel, that the PAN ID is not 0xffff, that the mesh-local \
                prefix is in fd00::/8, and that every TLV a complete dataset needs is present.
                """)
        static let arguments: [ArgumentSpec] = [
            .datasetInput,
            .flag("pending", help: "Require a complete Pending dataset (with Pending Timestamp and Delay Timer)."),
        ]

        /// The dataset as given: hex, or `-` for standard input.
        let input: String
        /// The complete dataset it must be.
        let kind: DatasetKind

        init(_ values: ParsedValues) throws(UsageError) {
            input = try values.required(ArgumentSpec.datasetInput.name)
            kind = values.flag("pending") ? .pending : .active
        }

        /// The JSON report.
        struct Report: Encodable {
            var valid: Bool
            var kind: DatasetKind
            var problems: [DatasetProblem]
        }

        func run(in context: CommandContext) async throws -> ExitCode {
            let bytes = try context.bytes(fromHexArgument: input, describing: "the dataset")
            let problems = OperationalDataset.validate(bytes: bytes, as: kind)
            if context.json {
                try context.writeJSON(Report(valid: problems.isEmpty, kind: kind, problems: problems))
            } else if problems.isEmpty {
                context.write("valid complete \(kind) dataset (\(bytes.count) bytes)")
            } else {
                for problem in problems { context.write(problem.description) }
            }
            return problems.isEmpty ? .success : .dataError
        }
    }
}
