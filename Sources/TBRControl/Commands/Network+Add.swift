import TBRCommandLine
import TBRFoundation

extension Network {
    /// `tbrctl network add STRUCTURE (--dataset HEX | --dataset-file FILE)`: a network into the directory.
    struct Add: ControlCommand {
        static let configuration = CommandConfiguration(
            name: "add",
            abstract: "Add a network to a structure's directory from its Active dataset.",
            discussion: """
                The dataset must be a valid, complete Active dataset (checked as 'dataset validate' checks; \
                every problem is listed and nothing is stored otherwise). Its credentials are kept in tbrd's \
                state database (mode 0600). Admins only.

                Exit status: 0; 1 an unknown structure; 65 a dataset that is not a complete Active dataset; \
                69 no tbrd; 77 not allowed.
                """)
        static let arguments: [ArgumentSpec] = [
            .positional("structure", valueName: "STRUCTURE", help: "The structure's name."),
            DatasetSource.hex, DatasetSource.file,
        ]

        let structure: String
        let hex: String?
        let file: String?

        init(_ values: ParsedValues) throws(UsageError) {
            structure = try values.required("structure")
            (hex, file) = DatasetSource.values(values)
        }

        func validate() throws(UsageError) { try DatasetSource.check(hex: hex, file: file) }

        func run(in context: CommandContext) async throws -> ExitCode {
            let tlvs = try context.datasetBytes(hex: hex, file: file)
            let xpan = try await RouterSession.withTbrd(context, for: "the network directory") { tbrd in
                try await tbrd.addNetwork(tlvs, to: structure)
            }
            if context.json {
                try context.writeJSON(["structure": structure, "extPanId": xpan])
            } else {
                context.write("\(xpan) is in \(Quoted(structure))'s network directory")
            }
            return .success
        }
    }
}
