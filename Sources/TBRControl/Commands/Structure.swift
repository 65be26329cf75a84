import TBRCommandLine

/// `tbrctl structure`: named sets of border routers and their settings, kept by tbrd. Its commands are
/// the `Structure+….swift` files beside this one.
struct Structure: CommandGroup {
    static let configuration = CommandConfiguration(
        name: "structure",
        abstract: "Manage structures: named sets of border routers with shared settings (needs tbrd).",
        subcommands: [List.self, Create.self, Add.self, Remove.self, Show.self, Policy.self, Room.self, Scan.self, Migrate.self, SetChannel.self, Recovery.self, Recover.self, Delete.self])
}
