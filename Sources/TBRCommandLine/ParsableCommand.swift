/// One command of a command tree: its name and help, the arguments it declares, and how it is built
/// from parsed values. One small struct per command:
/// ```swift
/// struct Check: ParsableCommand {
///     static let configuration = CommandConfiguration(name: "check", abstract: "Check an ePSKc.")
///     static let arguments: [ArgumentSpec] = [.positional("key", valueName: "KEY", help: "The key.")]
///
///     let key: String
///     init(_ values: ParsedValues) throws(UsageError) { key = try values.required("key") }
///     func validate() throws(UsageError) { … }   // optional: checks across arguments
/// }
/// ```
/// A command either groups subcommands (see ``CommandGroup``) or is a leaf that an application runs;
/// running is up to the application (tbrctl's `ControlCommand` adds `run`), so this module does no I/O.
public protocol ParsableCommand: Sendable {
    /// Name, help text and subcommands.
    static var configuration: CommandConfiguration { get }
    /// The flags, options and positionals this command accepts. Empty by default.
    static var arguments: [ArgumentSpec] { get }
    /// Builds the command from the values parsed for it, converting them to their types.
    /// - Throws: ``UsageError`` when a value does not convert.
    init(_ values: ParsedValues) throws(UsageError)
    /// Checks the built command as a whole (combinations of options, ranges), before anything runs.
    /// Does nothing by default.
    /// - Throws: ``UsageError`` with the sentence to show.
    func validate() throws(UsageError)
}

extension ParsableCommand {
    public static var arguments: [ArgumentSpec] { [] }
    public func validate() throws(UsageError) {}
}

/// A command that only groups subcommands, such as `tbrctl dataset`; it carries no values.
/// A struct with no stored properties conforms by declaring its ``ParsableCommand/configuration``.
public protocol CommandGroup: ParsableCommand {
    /// The group; it has nothing to initialise.
    init()
}

extension CommandGroup {
    public init(_ values: ParsedValues) { self.init() }
}

/// The static description of a command.
public struct CommandConfiguration: Sendable {
    /// The word that selects the command, e.g. `decode`; for the root, the program name.
    public var name: String
    /// One line for the command lists in help.
    public var abstract: String
    /// Longer help shown on the command's own help screen; paragraphs separated by blank lines.
    public var discussion: String?
    /// The program version, on the root only: enables `--version`, which prints `name version`.
    public var version: String?
    /// The commands below this one, in the order help lists them. Empty for a leaf.
    public var subcommands: [any ParsableCommand.Type]
    /// Whether help, the manual and completion leave the command out (helpers that scripts call, such
    /// as the one completion scripts ask for router ids). The parser still finds it.
    public var isHidden: Bool
    /// On the root only: what the manual page and completion scripts generated from the tree need.
    public var manual: ManualInfo?

    /// A configuration.
    /// - Parameters:
    ///   - name: the word that selects the command (the program name for the root).
    ///   - abstract: one line for command lists.
    ///   - discussion: longer help for the command's own help screen.
    ///   - version: the program version (root only).
    ///   - subcommands: the commands below this one.
    ///   - hidden: whether help, the manual and completion leave the command out.
    ///   - manual: on the root, what the generated manual page and completion scripts need; it enables
    ///     `--generate-manual` and `--generate-completion-script SHELL`.
    public init(
        name: String, abstract: String, discussion: String? = nil, version: String? = nil,
        subcommands: [any ParsableCommand.Type] = [], hidden: Bool = false, manual: ManualInfo? = nil
    ) {
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.version = version
        self.subcommands = subcommands
        self.isHidden = hidden
        self.manual = manual
    }
}

extension ParsableCommand {
    /// The subcommand called `name`, if any.
    static func subcommand(named name: String) -> (any ParsableCommand.Type)? {
        configuration.subcommands.first { $0.configuration.name == name }
    }

    /// Whether this command groups subcommands rather than running.
    static var isGroup: Bool { !configuration.subcommands.isEmpty }

    /// The subcommands help, the manual and completion show.
    static var visibleSubcommands: [any ParsableCommand.Type] {
        configuration.subcommands.filter { !$0.configuration.isHidden }
    }
}
