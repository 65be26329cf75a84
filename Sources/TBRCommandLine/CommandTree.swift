/// A walk over a command tree, and the checks that keep its declarations consistent.
public struct CommandTree: Sendable {
    /// The path to every command of the tree, from the root down, parents before children.
    public let paths: [[any ParsableCommand.Type]]

    /// The tree under `root`.
    public init(root: any ParsableCommand.Type) {
        var found: [[any ParsableCommand.Type]] = []
        func visit(_ path: [any ParsableCommand.Type]) {
            found.append(path)
            for subcommand in path.last?.configuration.subcommands ?? [] { visit(path + [subcommand]) }
        }
        visit([root])
        paths = found
    }

    /// What the last command of `path` accepts: the global declarations of the commands above it,
    /// then its own.
    static func accepted(along path: [any ParsableCommand.Type]) -> [ArgumentSpec] {
        path.dropLast().flatMap { $0.arguments.filter(\.isGlobal) } + (path.last?.arguments ?? [])
    }

    /// Mistakes in the declarations, one sentence each; empty when the tree is sound. Run it in a test:
    /// the parser assumes a sound tree.
    ///
    /// It checks that names are unique where they meet, that a name means the same kind of argument
    /// everywhere in the tree (options may stand before the command word that declares them), that
    /// `help` and `version` stay free, and that positionals are ordered so they can be matched.
    public func problems() -> [String] {
        var problems: [String] = []
        var kinds: [String: ArgumentSpec] = [:]
        for path in paths {
            guard let command = path.last else { continue }
            let name = "'\(path.map { $0.configuration.name }.joined(separator: " "))'"
            let accepted = Self.accepted(along: path)
            problems += Self.duplicates(accepted.filter { $0.kind != .positional }.map { "--\($0.name)" }, in: name)
            problems += Self.duplicates(accepted.compactMap { $0.shortName.map { "-\($0)" } }, in: name)
            problems += Self.duplicates(command.configuration.subcommands.map { $0.configuration.name }, in: name)
            for spec in command.arguments where spec.kind != .positional {
                if ["help", "version"].contains(spec.name) || spec.shortName == "h" {
                    problems.append("\(name) declares '--\(spec.name)', which the parser reserves")
                }
                if let other = kinds[spec.name], other.kind != spec.kind || other.shortName != spec.shortName {
                    problems.append("\(name) declares '--\(spec.name)' differently from elsewhere in the tree")
                }
                kinds[spec.name] = kinds[spec.name] ?? spec
            }
            problems += Self.positionalProblems(command, name: name)
        }
        return problems
    }

    private static func duplicates(_ names: [String], in command: String) -> [String] {
        var seen: Set<String> = []
        return names.filter { !seen.insert($0).inserted }.map { "\(command) declares '\($0)' twice" }
    }

    private static func positionalProblems(_ command: any ParsableCommand.Type, name: String) -> [String] {
        let positionals = command.arguments.filter { $0.kind == .positional }
        if command.isGroup, !positionals.isEmpty {
            return ["\(name) has both subcommands and positional arguments"]
        }
        var problems: [String] = []
        for (i, spec) in positionals.enumerated() {
            if spec.isRepeatable, i != positionals.count - 1 {
                problems.append("\(name): only the last positional may be repeatable")
            }
            if spec.isRequired, i > 0, !positionals[i - 1].isRequired {
                problems.append("\(name): required positional \(spec.valueName) follows an optional one")
            }
            if spec.isGlobal { problems.append("\(name): positional \(spec.valueName) cannot be global") }
        }
        return problems
    }
}
