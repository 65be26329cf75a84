import TBRCommandLine

/// `tbrctl network`: join and leave Thread networks. Its commands are the `Network+….swift` files
/// beside this one.
struct Network: CommandGroup {
    static let configuration = CommandConfiguration(
        name: "network",
        abstract: "Join a border router to a Thread network, or make it leave its network.",
        subcommands: [Join.self, Leave.self])
}
