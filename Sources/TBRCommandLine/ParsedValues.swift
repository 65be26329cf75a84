/// The values the parser found for one command: its own arguments and the global options of the
/// commands above it, read by the names they were declared with.
///
/// Reading a name the command did not declare is a programming error and stops the program, so a
/// typo shows up the first time a test runs the command.
public struct ParsedValues: Sendable {
    /// The command words, from the program name down, e.g. `["tbrctl", "dataset", "decode"]`.
    public let commandPath: [String]
    private let declarations: [String: ArgumentSpec]
    private let given: [String: [String]]

    /// Values for `commandPath`: `given` maps a declared name to its words in command-line order
    /// (one empty word per occurrence of a flag).
    init(commandPath: [String], declarations: [ArgumentSpec], given: [String: [String]]) {
        self.commandPath = commandPath
        self.declarations = Dictionary(declarations.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        self.given = given
    }

    /// Whether the flag `name` was given.
    public func flag(_ name: String) -> Bool {
        precondition(declaration(name).kind == .flag, "'\(name)' is not a flag")
        return given[name] != nil
    }

    /// The word given for `name` (the last one, for a repeated option), else its default, else nil.
    public func string(_ name: String) -> String? {
        strings(name).last ?? declaration(name).defaultValue
    }

    /// Every word given for `name`, in command-line order; empty when absent (defaults do not apply).
    public func strings(_ name: String) -> [String] {
        precondition(declaration(name).kind != .flag, "'\(name)' is a flag; read it with flag(_:)")
        return given[name] ?? []
    }

    /// The value of `name` converted to `T`, or nil when it is absent and has no default.
    /// - Throws: ``UsageError`` naming the word and the option when the conversion fails.
    public func value<T: ExpressibleByArgument>(_ name: String, as type: T.Type = T.self) throws(UsageError) -> T? {
        try value(name) { (word) throws(ArgumentValueError) in try T(argument: word) }
    }

    /// The value of `name` read by `transform`, or nil when it is absent and has no default.
    /// - Throws: ``UsageError`` naming the word and the option when `transform` rejects it.
    public func value<T>(_ name: String, _ transform: (String) throws(ArgumentValueError) -> T) throws(UsageError) -> T? {
        guard let word = string(name) else { return nil }
        return try convert(word, of: name, transform)
    }

    /// Every value given for `name`, converted to `T`.
    /// - Throws: ``UsageError`` for the first word that does not convert.
    public func values<T: ExpressibleByArgument>(_ name: String, as type: T.Type = T.self) throws(UsageError) -> [T] {
        var out: [T] = []
        for word in strings(name) {
            out.append(try convert(word, of: name) { (word) throws(ArgumentValueError) in try T(argument: word) })
        }
        return out
    }

    /// The value of a required argument converted to `T`.
    /// - Throws: ``UsageError`` when it is missing or does not convert.
    public func required<T: ExpressibleByArgument>(_ name: String, as type: T.Type = T.self) throws(UsageError) -> T {
        try required(name) { (word) throws(ArgumentValueError) in try T(argument: word) }
    }

    /// The value of a required argument read by `transform`.
    /// - Throws: ``UsageError`` when it is missing or `transform` rejects it.
    public func required<T>(_ name: String, _ transform: (String) throws(ArgumentValueError) -> T) throws(UsageError) -> T {
        guard let value = try value(name, transform) else {
            let spec = declaration(name)
            let what = spec.kind == .positional ? spec.valueName : "option '--\(name) \(spec.valueName)'"
            throw UsageError("missing \(what) for '\(commandPath.joined(separator: " "))'", commandPath: commandPath)
        }
        return value
    }

    private func convert<T>(
        _ word: String, of name: String, _ transform: (String) throws(ArgumentValueError) -> T
    ) throws(UsageError) -> T {
        do {
            return try transform(word)
        } catch {
            let what = declaration(name).kind == .positional ? "\(declaration(name).valueName)" : "'--\(name)'"
            throw UsageError("invalid value '\(word)' for \(what): \(error.reason)", commandPath: commandPath)
        }
    }

    private func declaration(_ name: String) -> ArgumentSpec {
        guard let spec = declarations[name] else {
            preconditionFailure("'\(name)' is not declared by '\(commandPath.joined(separator: " "))'")
        }
        return spec
    }
}
