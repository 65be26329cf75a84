import TBRCommandLine

/// `tbrctl epskc`: ephemeral commissioner keys (ePSKc, "TAP" codes). Its commands are the
/// `EPSKc+….swift` files beside this one.
struct EPSKc: CommandGroup {
    static let configuration = CommandConfiguration(
        name: "epskc",
        abstract: "Generate and check ephemeral commissioner keys (ePSKc).",
        subcommands: [Generate.self, Check.self])
}
