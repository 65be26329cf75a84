import TBRCommandLine

/// `tbrctl router`: border routers on other hosts, reached through their otbr-agent's REST API. Its
/// commands are the `Router+….swift` files beside this one.
struct Router: CommandGroup {
    static let configuration = CommandConfiguration(
        name: "router",
        abstract: "Add or remove border routers on other hosts, reached through otbr-agent's REST API (needs tbrd).",
        subcommands: [Add.self, Remove.self])
}
