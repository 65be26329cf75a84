/// What a command line asks for.
public enum ParseResult: Sendable {
    /// `--help`, `-h` or `help …`: the help text of the command reached, for standard output.
    case help(String)
    /// `--version`: the line to print, `name version`.
    case version(String)
    /// `--generate-manual` or `--generate-completion-script SHELL`: the page or script, for standard
    /// output.
    case generated(String)
    /// A leaf command, built and validated, with the values it was built from.
    case command(any ParsableCommand, ParsedValues)
}

/// Parses command lines against a command tree.
///
/// Rules: command words select subcommands from the root down; flags and options may stand anywhere,
/// before or after the command words; `--name VALUE`, `--name=VALUE`, `-n VALUE` and `-nVALUE` are
/// the same (a value that starts with `--` must be attached with `=`); `--` ends options; `-` is a
/// positional word. A command accepts its own declarations and the global ones of the commands above
/// it. `-h`, `--help` and `help` print the help of the command reached (a command word that names no
/// command is a usage error even then), and `--version` works when the root declares a version.
public struct CommandParser: Sendable {
    /// The root of the tree, whose name is the program name.
    public let root: any ParsableCommand.Type
    private let index: [String: ArgumentSpec]

    /// A parser for the tree under `root`.
    public init(root: any ParsableCommand.Type) {
        self.root = root
        var index: [String: ArgumentSpec] = [:]
        for path in CommandTree(root: root).paths {
            for spec in path.last?.arguments ?? [] where spec.kind != .positional {
                if index["--\(spec.name)"] == nil { index["--\(spec.name)"] = spec }
                if let short = spec.shortName, index["-\(short)"] == nil { index["-\(short)"] = spec }
            }
        }
        self.index = index
    }

    /// Parses `arguments` (without the program name), and builds and validates the command they select.
    /// - Throws: ``UsageError`` naming the offending word, with the command path filled in.
    public func parse(_ arguments: [String]) throws(UsageError) -> ParseResult {
        if let generated = try generated(arguments) { return .generated(generated) }
        let scan = CommandScan(arguments, root: root, index: index)
        let words = scan.commandWords
        guard let command = scan.path.last else { preconditionFailure("the scan always holds the root") }
        if let unknown = scan.unknownCommand {
            // `tbrctl frob --help` asks for the help of a command that does not exist.
            throw UsageError(unknown, commandPath: words)
        }
        if scan.wantsHelp {
            return .help(HelpRenderer(path: scan.path).render())
        }
        if let message = scan.firstError {
            throw UsageError(message, commandPath: words)
        }
        if scan.wantsVersion, let version = root.configuration.version {
            return .version("\(root.configuration.name) \(version)")
        }
        if command.isGroup {
            let names = command.configuration.subcommands.map { $0.configuration.name }
            throw UsageError(
                "missing command for '\(words.joined(separator: " "))'; expected one of: \(names.joined(separator: ", "))",
                commandPath: words)
        }
        let values = try Self.values(of: scan)
        do throws(UsageError) {
            let built = try command.init(values)
            try built.validate()
            return .command(built, values)
        } catch {
            var error = error
            if error.commandPath.isEmpty { error.commandPath = words }
            throw error
        }
    }

    /// What `--generate-manual` and `--generate-completion-script SHELL` ask for, when the root has a
    /// ``ManualInfo`` and the command line is one of them; nil for any other command line.
    private func generated(_ arguments: [String]) throws(UsageError) -> String? {
        guard root.configuration.manual != nil, let first = arguments.first else { return nil }
        let program = [root.configuration.name]
        if first == "--generate-manual" {
            guard arguments.count == 1 else {
                throw UsageError("'--generate-manual' takes nothing after it", commandPath: program)
            }
            return ManualRenderer(root: root).render()
        }
        let option = "--generate-completion-script"
        guard first == option || first.hasPrefix(option + "=") else { return nil }
        let rest = first == option ? Array(arguments.dropFirst()) : [String(first.dropFirst(option.count + 1))] + arguments.dropFirst()
        let shells = CompletionScript.Shell.allCases.map(\.rawValue).joined(separator: ", ")
        guard rest.count == 1, let shell = CompletionScript.Shell(rawValue: rest[0]) else {
            throw UsageError("'\(option)' takes one shell: \(shells)", commandPath: program)
        }
        return CompletionScript.render(shell, root: root)
    }

    /// The help text of the command reached by `commandWords` (without the program name), or nil when
    /// no such command exists.
    public func helpText(for commandWords: [String]) -> String? {
        var path: [any ParsableCommand.Type] = [root]
        for word in commandWords {
            guard let next = path.last?.subcommand(named: word) else { return nil }
            path.append(next)
        }
        return HelpRenderer(path: path).render()
    }

    /// Checks the scanned words against what the command reached accepts, and collects its values.
    private static func values(of scan: CommandScan) throws(UsageError) -> ParsedValues {
        let words = scan.commandWords
        // Made only for an error: every command would otherwise pay for the unspecialized `joined`.
        var name: String { "'\(words.joined(separator: " "))'" }
        let accepted = CommandTree.accepted(along: scan.path)
        var given: [String: [String]] = [:]
        for occurrence in scan.occurrences {
            let spec = occurrence.spec
            guard accepted.contains(where: { $0.name == spec.name && $0.kind == spec.kind }) else {
                throw UsageError("option '\(occurrence.word)' does not apply to \(name)", commandPath: words)
            }
            if spec.kind == .option, !spec.isRepeatable, given[spec.name] != nil {
                throw UsageError("option '\(occurrence.word)' is given more than once", commandPath: words)
            }
            given[spec.name, default: []].append(occurrence.value ?? "")
        }
        var remaining = scan.positionals[...]
        for spec in accepted where spec.kind == .positional {
            if spec.isRepeatable {
                if !remaining.isEmpty { given[spec.name] = Array(remaining) }
                remaining = []
            } else if let word = remaining.popFirst() {
                given[spec.name] = [word]
            }
            if spec.isRequired, given[spec.name] == nil {
                throw UsageError("missing \(spec.valueName) for \(name)", commandPath: words)
            }
        }
        if let extra = remaining.first {
            throw UsageError("unexpected argument '\(extra)' for \(name)", commandPath: words)
        }
        for spec in accepted where spec.kind == .option && spec.isRequired && given[spec.name] == nil {
            throw UsageError("missing option '--\(spec.name) \(spec.valueName)' for \(name)", commandPath: words)
        }
        return ParsedValues(commandPath: words, declarations: accepted, given: given)
    }
}
