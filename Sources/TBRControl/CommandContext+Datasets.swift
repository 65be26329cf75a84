import FoundationEssentials
import TBRCommandLine
import TBRFoundation

extension CommandContext {
    /// The dataset's bytes from `--dataset HEX` or `--dataset-file FILE` (the commands that take either).
    func datasetBytes(hex: String?, file: String?) throws -> [UInt8] {
        if let hex { return try bytes(fromHexArgument: hex, describing: "the dataset") }
        guard let file else { return [] }
        let text: String
        do {
            text = String(decoding: try FileDescriptorIO.readFile(atPath: file, limit: CommandContext.hexInputLimit), as: UTF8.self)
        } catch is FileDescriptorIO.InputTooLong {
            throw ControlError.dataError(CommandContext.tooLong("the dataset", source: "the dataset file \(Quoted(file))"))
        } catch {
            throw ControlError.dataError("cannot read the dataset file \(Quoted(file)): \(error)")
        }
        guard text.contains(where: { !$0.isWhitespace }) else {
            throw ControlError.dataError("the dataset file \(Quoted(file)) is empty; expected the dataset as hex")
        }
        return try bytes(fromHexArgument: text, describing: "the dataset in \(Quoted(file))")
    }
}

/// `--dataset HEX | --dataset-file FILE`, the pair of options of the commands that take an Active
/// dataset (`network join`, `network add`), declared and checked once.
enum DatasetSource {
    static let hex = ArgumentSpec.option(
        "dataset", valueName: "HEX", help: "The active dataset as hex TLVs, or - to read the hex from standard input.")
    static let file = ArgumentSpec.option("dataset-file", valueName: "FILE", help: "A file holding the active dataset as hex TLVs.")

    /// The two values as given.
    static func values(_ values: ParsedValues) -> (hex: String?, file: String?) {
        (values.string(hex.name), values.string(file.name))
    }

    /// Exactly one of the two.
    static func check(hex: String?, file: String?) throws(UsageError) {
        switch (hex, file) {
        case (nil, nil): throw UsageError("give the dataset with --dataset HEX or --dataset-file FILE")
        case (.some, .some): throw UsageError("give the dataset once: --dataset or --dataset-file, not both")
        default: break
        }
    }
}
