import TBRCommandLine

extension Structure {
    /// `tbrctl structure room`: the rooms of a structure, which Matter nodes are placed in. Its commands are
    /// the `Structure+Room….swift` files beside this one.
    struct Room: CommandGroup {
        static let configuration = CommandConfiguration(
            name: "room",
            abstract: "Manage the rooms of a structure, where its Matter nodes are placed (needs tbrd).",
            discussion: """
                A room is a name within one structure, following the rules of structure names (1 to 64 \
                bytes in Unicode NFC, no control or invisible formatting characters, no leading or \
                trailing white space). Matter nodes are placed in rooms when they are commissioned \
                ('tbrctl matter commission --room') or later ('tbrctl matter move').
                """,
            subcommands: [List.self, Add.self, Remove.self])
    }
}
