/// Renders the help screen of a command from its declarations: overview, usage, arguments, options,
/// the global options it inherits, and its subcommands.
struct HelpRenderer {
    /// The commands from the root down to the one described.
    let path: [any ParsableCommand.Type]

    private static let width = 80
    private static let column = 26

    /// The help text, ending in a newline.
    func render() -> String {
        guard let command = path.last else { return "" }
        let configuration = command.configuration
        let inherited = path.dropLast().flatMap { $0.arguments.filter(\.isGlobal) }
        let positionals = command.arguments.filter { $0.kind == .positional }
        var options = command.arguments.filter { $0.kind != .positional }.map(Self.row)
        if path.count == 1, configuration.version != nil {
            options.append(("--version", "Show the version and exit."))
        }
        options.append(("-h, --help", "Show help for this command."))

        var sections = ["OVERVIEW: " + configuration.abstract]
        if let discussion = configuration.discussion { sections.append(Self.paragraphs(discussion)) }
        sections.append(TextFill.lines(["USAGE:"] + usage(), width: Self.width, indent: 7).joined(separator: "\n"))
        if !positionals.isEmpty { sections.append(Self.table("ARGUMENTS", positionals.map(Self.row))) }
        sections.append(Self.table("OPTIONS", options))
        if !inherited.isEmpty { sections.append(Self.table("GLOBAL OPTIONS", inherited.map(Self.row))) }
        if command.isGroup {
            let rows = command.visibleSubcommands.map { ($0.configuration.name, $0.configuration.abstract) }
            sections.append(Self.table("COMMANDS", rows))
            let words = path.map { $0.configuration.name }.joined(separator: " ")
            sections.append("See '\(words) <command> --help' for the help of a command.")
        }
        return sections.joined(separator: "\n\n") + "\n"
    }

    /// The words of the usage line: `tbrctl dataset new [--name NAME] …` or `tbrctl dataset <command>`.
    func usage() -> [String] {
        guard let command = path.last else { return [] }
        var parts = path.map { $0.configuration.name }
        for spec in command.arguments where spec.kind != .positional {
            let form = spec.usageForm + (spec.isRepeatable ? " ..." : "")
            parts.append(spec.isRequired ? form : "[\(form)]")
        }
        if path.count == 1, command.configuration.version != nil { parts.append("[--version]") }
        for spec in command.arguments where spec.kind == .positional {
            let form = spec.valueName + (spec.isRepeatable ? " ..." : "")
            parts.append(spec.isRequired ? form : "[\(form)]")
        }
        if command.isGroup { parts.append("<command>") }
        return parts
    }

    private static func row(_ spec: ArgumentSpec) -> (String, String) {
        var left = spec.kind == .positional ? spec.valueName : spec.usageForm
        if let short = spec.shortName { left = "-\(short), " + left }
        return (left, spec.annotatedHelp)
    }

    private static func table(_ title: String, _ rows: [(String, String)]) -> String {
        var lines = [title + ":"]
        for (left, help) in rows {
            let wrapped = TextFill.lines(of: help, width: width - column)
            let first = wrapped.first ?? ""
            if left.count + 2 <= column - 2 {
                lines.append("  " + left + String(repeating: " ", count: column - 2 - left.count) + first)
            } else {
                lines.append("  " + left)
                lines.append(String(repeating: " ", count: column) + first)
            }
            lines += wrapped.dropFirst().map { String(repeating: " ", count: column) + $0 }
        }
        return lines.joined(separator: "\n")
    }

    /// Wraps each paragraph to the screen width; paragraphs with indented lines (examples) stay as written.
    private static func paragraphs(_ text: String) -> String {
        text.split(separator: "\n\n", omittingEmptySubsequences: true).map { paragraph in
            if paragraph.split(separator: "\n").contains(where: { $0.hasPrefix(" ") }) { return String(paragraph) }
            return TextFill.lines(of: String(paragraph), width: width).joined(separator: "\n")
        }.joined(separator: "\n\n")
    }
}
