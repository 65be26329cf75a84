import TBRCommandLine

/// `tbrctl network`: join and leave Thread networks. Its commands are the `Network+….swift` files
/// beside this one.
struct Network: CommandGroup {
    static let configuration = CommandConfiguration(
        name: "network",
        abstract: "Thread networks: join and leave, fetch credentials with an ePSKc, and each structure's network directory.",
        subcommands: [Join.self, Leave.self, Fetch.self, List.self, Preferred.self, Add.self, Forget.self, Export.self, Scan.self])
}
