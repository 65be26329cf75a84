import TBRCommandLine

/// `tbrctl dataset`: decode, check and make Thread operational datasets. Its commands are the
/// `Dataset+….swift` files beside this one.
struct Dataset: CommandGroup {
    static let configuration = CommandConfiguration(
        name: "dataset",
        abstract: "Decode, validate and create Thread operational datasets.",
        subcommands: [Decode.self, Validate.self, New.self, DerivePSKc.self])
}
