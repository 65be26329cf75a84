/// The command tree as the completion scripts see it: the visible commands, each with its
/// subcommands, the options it accepts (its own and the global ones above it) and its positionals.
struct CompletionModel {
    struct Option {
        var long: String
        var short: Character?
        /// Nil for a flag.
        var value: ValueCompletion?
        var help: String

        /// `--long` and `-s`.
        var words: [String] { ["--\(long)"] + (short.map { ["-\($0)"] } ?? []) }
    }

    struct Command {
        /// From the program name down, e.g. `["tbrctl", "epskc", "activate"]`.
        var words: [String]
        var subcommands: [(name: String, abstract: String)]
        var options: [Option]
        var positionals: [ValueCompletion]
        /// Whether the last positional takes every remaining word.
        var lastRepeats: Bool

        var path: String { words.joined(separator: " ") }
    }

    let program: String
    let commands: [Command]
    /// Every option of the tree that takes a value (a name means the same everywhere in a sound tree).
    let valueOptions: [Option]

    init(root: any ParsableCommand.Type) {
        let dynamic = root.configuration.manual?.dynamicValues ?? [:]
        program = root.configuration.name
        var commands: [Command] = []
        var valueOptions: [String: Option] = [:]
        for path in CommandTree(root: root).paths where !path.contains(where: { $0.configuration.isHidden }) {
            guard let command = path.last else { continue }
            var options = CommandTree.accepted(along: path).filter { $0.kind != .positional }.map { spec in
                Option(
                    long: spec.name, short: spec.shortName,
                    value: spec.kind == .option ? ValueCompletion(spec, dynamic: dynamic) : nil, help: spec.help)
            }
            for option in options where option.value != nil { valueOptions[option.long] = valueOptions[option.long] ?? option }
            options.append(Option(long: "help", short: "h", value: nil, help: "Show help for this command."))
            if path.count == 1, root.configuration.version != nil {
                options.append(Option(long: "version", short: nil, value: nil, help: "Show the version and exit."))
            }
            let positionals = command.arguments.filter { $0.kind == .positional }
            commands.append(
                Command(
                    words: path.map { $0.configuration.name },
                    subcommands: command.visibleSubcommands.map { ($0.configuration.name, $0.configuration.abstract) },
                    options: options,
                    positionals: positionals.map { ValueCompletion($0, dynamic: dynamic) },
                    lastRepeats: positionals.last?.isRepeatable ?? false))
        }
        self.commands = commands
        self.valueOptions = valueOptions.keys.sorted().compactMap { valueOptions[$0] }
    }
}
