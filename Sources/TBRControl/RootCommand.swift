import TBRCommandLine

/// `tbrctl`: the root of the command tree. Every command is reachable from here: add a group or a
/// command to `subcommands` (or to its group's) and it is parsed, documented in help, and run.
struct RootCommand: CommandGroup {
    static let configuration = CommandConfiguration(
        name: "tbrctl",
        abstract: "Manage Thread border routers: operational datasets and ephemeral keys (ePSKc).",
        discussion: """
            Output is text for people by default and JSON with --json. Secrets (network key, PSKc) are \
            shown as <redacted> unless --reveal-secrets is given where a command offers it.

            Exit status: 0 ok, 1 the operation failed, 64 usage error, 65 bad data.
            """,
        version: TBRControlMain.version,
        subcommands: [Dataset.self, EPSKc.self])

    static let arguments: [ArgumentSpec] = [.json]
}
