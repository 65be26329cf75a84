import TBRCommandLine

/// `tbrctl dataset`: show a border router's dataset; decode, check and make Thread operational datasets. Its commands are the
/// `Dataset+….swift` files beside this one.
struct Dataset: CommandGroup {
    static let configuration = CommandConfiguration(
        name: "dataset",
        abstract: "Show a router's dataset; decode, validate and create Thread operational datasets.",
        subcommands: [Show.self, Decode.self, Validate.self, New.self, DerivePSKc.self])
}
