import TBRCommandLine

/// `tbrctl api`: tbrd's HTTPS API, its certificate and its tokens. Its commands are the `API+….swift`
/// files beside this one.
struct API: CommandGroup {
    static let configuration = CommandConfiguration(
        name: "api",
        abstract: "The HTTPS API: where it listens, its certificate, its tokens (needs tbrd).",
        subcommands: [Info.self, Token.self])
}
