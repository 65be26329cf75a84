import TBRCommandLine

/// `tbrctl epskc`: ephemeral commissioner keys (ePSKc, "TAP" codes): on a border router (activate,
/// deactivate, watch) and offline (generate, check). Its commands are the `EPSKc+….swift` files beside
/// this one.
struct EPSKc: CommandGroup {
    static let configuration = CommandConfiguration(
        name: "epskc",
        abstract: "Start, end and watch ephemeral commissioner keys (ePSKc); generate and check them.",
        subcommands: [Activate.self, Deactivate.self, Watch.self, Generate.self, Check.self])
}
