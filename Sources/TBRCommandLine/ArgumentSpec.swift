/// The declaration of one flag, option or positional argument of a command.
///
/// Commands list theirs in ``ParsableCommand/arguments``:
/// ```swift
/// static let arguments: [ArgumentSpec] = [
///     .option("channel", valueName: "CHANNEL", help: "Radio channel, 11 to 26."),
///     .flag("reveal-secrets", help: "Show the network key and PSKc."),
///     .positional("dataset", valueName: "HEX|-", help: "The dataset as hex TLVs, or - for standard input."),
/// ]
/// ```
/// and read the parsed values through ``ParsedValues`` by the same `name`. Options and flags are
/// accepted anywhere on the command line, before or after the command words.
public struct ArgumentSpec: Sendable, Equatable {
    /// What kind of argument this is.
    public enum Kind: Sendable, Equatable {
        /// `--name`: present or not.
        case flag
        /// `--name VALUE` or `--name=VALUE` (and `-n VALUE` with a short name).
        case option
        /// A word matched by position.
        case positional
    }

    /// What kind of argument this is.
    public var kind: Kind
    /// The key values are read by; for flags and options also the long name without `--`.
    public var name: String
    /// An optional one-letter name, written `-d`.
    public var shortName: Character?
    /// What the value is called in help and usage, e.g. `CHANNEL` or `HEX|-`; empty for flags.
    public var valueName: String
    /// One or two sentences for the help screen.
    public var help: String
    /// The value used when the option is absent; shown in help as `(default: …)`.
    public var defaultValue: String?
    /// Whether the command line must contain it.
    public var isRequired: Bool
    /// Whether it may be given several times (for a positional: whether it takes all remaining words).
    public var isRepeatable: Bool
    /// Whether it applies to every subcommand below the command that declares it, as tbrctl's `--json`.
    public var isGlobal: Bool

    /// A flag, `--name` (or `-s`).
    /// - Parameters:
    ///   - name: the long name without `--`.
    ///   - short: an optional one-letter name.
    ///   - help: the help text.
    ///   - global: whether every subcommand below the declaring command accepts it too.
    public static func flag(_ name: String, short: Character? = nil, help: String, global: Bool = false) -> ArgumentSpec {
        ArgumentSpec(
            kind: .flag, name: name, shortName: short, valueName: "", help: help, defaultValue: nil,
            isRequired: false, isRepeatable: false, isGlobal: global)
    }

    /// An option that takes a value, `--name VALUE`, `--name=VALUE` (or `-s VALUE`).
    /// - Parameters:
    ///   - name: the long name without `--`.
    ///   - short: an optional one-letter name.
    ///   - valueName: what the value is called in help, e.g. `SECONDS`.
    ///   - help: the help text.
    ///   - default: the value used when the option is absent.
    ///   - required: whether the command line must give it.
    ///   - repeatable: whether it may be given more than once (read all with ``ParsedValues/strings(_:)``).
    ///   - global: whether every subcommand below the declaring command accepts it too.
    public static func option(
        _ name: String, short: Character? = nil, valueName: String, help: String, default: String? = nil,
        required: Bool = false, repeatable: Bool = false, global: Bool = false
    ) -> ArgumentSpec {
        ArgumentSpec(
            kind: .option, name: name, shortName: short, valueName: valueName, help: help, defaultValue: `default`,
            isRequired: required, isRepeatable: repeatable, isGlobal: global)
    }

    /// A positional argument. `-` is an ordinary positional word (commands use it for standard input).
    /// - Parameters:
    ///   - name: the key to read it by.
    ///   - valueName: what it is called in usage and help, e.g. `KEY` or `HEX|-`.
    ///   - help: the help text.
    ///   - required: whether the command line must give it.
    ///   - repeatable: whether it takes every remaining word; only the last positional may.
    public static func positional(
        _ name: String, valueName: String, help: String, required: Bool = true, repeatable: Bool = false
    ) -> ArgumentSpec {
        ArgumentSpec(
            kind: .positional, name: name, shortName: nil, valueName: valueName, help: help, defaultValue: nil,
            isRequired: required, isRepeatable: repeatable, isGlobal: false)
    }

    /// The usage form, e.g. `--channel CHANNEL`, `--json` or `HEX|-`.
    var usageForm: String {
        switch kind {
        case .flag: "--\(name)"
        case .option: "--\(name) \(valueName)"
        case .positional: valueName
        }
    }

    /// The help text with what the declaration adds to it: required, repeatable, the default. Help
    /// screens and manual pages show this.
    var annotatedHelp: String {
        var text = help
        if isRequired, kind == .option { text += " (required)" }
        if isRepeatable { text += kind == .option ? " (repeatable)" : " (one or more)" }
        if let defaultValue { text += " (default: \(defaultValue))" }
        return text
    }
}
