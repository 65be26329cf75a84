/// The first pass over a command line: walks the words once, following command words down the
/// tree and collecting options and positionals wherever they stand. Options are recognised by every
/// declaration in the tree, because an option may come before the command word that declares it
/// (`tbrctl --reveal-secrets dataset decode X`); the second pass checks that the command reached
/// accepts them.
struct CommandScan {
    /// One option or flag as written.
    struct Occurrence {
        /// Its declaration somewhere in the tree.
        var spec: ArgumentSpec
        /// The word that named it, e.g. `--name`, `-d`.
        var word: String
        /// Its value; nil for a flag.
        var value: String?
    }

    /// The commands selected so far, root first.
    private(set) var path: [any ParsableCommand.Type]
    private(set) var occurrences: [Occurrence] = []
    private(set) var positionals: [String] = []
    private(set) var wantsHelp = false
    private(set) var wantsVersion = false
    /// The first problem met; reported only if help was not asked for.
    private(set) var firstError: String?
    /// A command word that names no command: reported even when help was asked for, since there is no
    /// command whose help could be meant.
    private(set) var unknownCommand: String?

    private let index: [String: ArgumentSpec]

    /// Scans `arguments` against the tree under `root`; `index` maps `--long` and `-s` to declarations.
    init(_ arguments: [String], root: any ParsableCommand.Type, index: [String: ArgumentSpec]) {
        self.path = [root]
        self.index = index
        var words = arguments[...]
        var onlyPositionals = false
        while let word = words.popFirst() {
            if onlyPositionals || word == "-" || !word.hasPrefix("-") {
                take(word, mayBeCommand: !onlyPositionals)
            } else if word == "--" {
                onlyPositionals = true
            } else if word == "--help" || word == "-h" {
                wantsHelp = true
            } else if word == "--version", root.configuration.version != nil {
                wantsVersion = true
            } else {
                takeOption(word, rest: &words)
            }
        }
    }

    /// The command words, from the program name down.
    var commandWords: [String] { path.map { $0.configuration.name } }

    private mutating func take(_ word: String, mayBeCommand: Bool) {
        guard let current = path.last, current.isGroup, positionals.isEmpty, mayBeCommand else {
            positionals.append(word)
            return
        }
        if let subcommand = current.subcommand(named: word) {
            path.append(subcommand)
        } else if word == "help" {
            wantsHelp = true
        } else {
            let names = current.visibleSubcommands.map { $0.configuration.name }
            let message = "unknown command '\(word)' for '\(commandWords.joined(separator: " "))'; expected one of: \(names.joined(separator: ", "))"
            if unknownCommand == nil { unknownCommand = message }
            fail(message)
        }
    }

    private mutating func takeOption(_ word: String, rest: inout ArraySlice<String>) {
        var key = word
        var inlineValue: String?
        if word.hasPrefix("--") {
            if let equals = word.firstIndex(of: "=") {
                key = String(word[..<equals])
                inlineValue = String(word[word.index(after: equals)...])
            }
        } else if word.count > 2 {
            // -dVALUE: a short option with its value attached.
            key = String(word.prefix(2))
            inlineValue = String(word.dropFirst(2))
        }
        guard let spec = index[key] else { return fail("unknown option '\(word)'") }
        if spec.kind == .flag, inlineValue != nil, !word.hasPrefix("--") {
            // `-jx`: short flags are not bundled, so this names no option.
            return fail("unknown option '\(word)'")
        }
        switch spec.kind {
        case .flag:
            if inlineValue != nil { return fail("'\(key)' is a flag and takes no value") }
            occurrences.append(Occurrence(spec: spec, word: key, value: nil))
        case .option:
            if let inlineValue {
                occurrences.append(Occurrence(spec: spec, word: key, value: inlineValue))
            } else if let next = rest.first, !next.hasPrefix("--") {
                rest.removeFirst()
                occurrences.append(Occurrence(spec: spec, word: key, value: next))
            } else {
                fail("missing value for '\(key)'; expected \(spec.valueName)")
            }
        case .positional:
            preconditionFailure("positionals are not indexed as options")
        }
    }

    private mutating func fail(_ message: String) {
        if firstError == nil { firstError = message }
    }
}
