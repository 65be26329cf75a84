/// What a program's generated manual page and completion scripts need beyond its command tree. Set on
/// the root's ``CommandConfiguration``; it enables `--generate-manual` and
/// `--generate-completion-script bash|zsh|fish`.
public struct ManualInfo: Sendable {
    /// A section of the manual page after the generated ones, such as FILES or ENVIRONMENT.
    public struct Section: Sendable {
        /// The heading, e.g. `FILES`.
        public var title: String
        /// Paragraphs separated by blank lines; a paragraph with indented lines is kept as written.
        public var text: String

        /// A section titled `title` with `text`.
        public init(_ title: String, _ text: String) {
            self.title = title
            self.text = text
        }
    }

    /// The manual section: `1` for user commands, `8` for daemons.
    public var section: String
    /// Sections after the command reference.
    public var sections: [Section]
    /// Related pages, e.g. `tbrd(8)`.
    public var seeAlso: [String]
    /// Values only the running program knows, completed by asking it: a value name (`ROUTER`) → the
    /// words, after the program name, of a hidden command that prints the values one per line and prints
    /// nothing (exit 0) when it cannot tell.
    public var dynamicValues: [String: [String]]

    /// Manual and completion settings.
    public init(
        section: String, sections: [Section] = [], seeAlso: [String] = [], dynamicValues: [String: [String]] = [:]
    ) {
        self.section = section
        self.sections = sections
        self.seeAlso = seeAlso
        self.dynamicValues = dynamicValues
    }
}
