/// The manual page of a program, generated from its command tree (`PROGRAM --generate-manual`): NAME,
/// SYNOPSIS, DESCRIPTION and OPTIONS from the root, a COMMANDS section with every visible command (its
/// usage, help, arguments and options), then the sections and SEE ALSO of ``ManualInfo``. Help and the
/// manual read the same declarations, so they cannot disagree.
struct ManualRenderer {
    let root: any ParsableCommand.Type

    func render() -> String {
        let configuration = root.configuration
        let info = configuration.manual ?? ManualInfo(section: "1")
        let program = configuration.name
        var page = [
            Roff.header(
                name: program, section: info.section,
                source: program + (configuration.version.map { " " + $0 } ?? ""), manual: program),
            ".SH NAME",
            "\(Roff.escape(program)) \\- \(Roff.escape(configuration.abstract.droppingFinalPeriod))",
            ".SH SYNOPSIS",
            Self.usage([root]),
        ]
        if let discussion = configuration.discussion {
            page += [".SH DESCRIPTION", Roff.paragraphs(discussion)]
        }
        page += [".SH OPTIONS"] + Self.entries(for: [root])
        let commands = CommandTree(root: root).paths.dropFirst().filter { path in
            !path.contains { $0.configuration.isHidden }
        }
        if !commands.isEmpty {
            page.append(".SH COMMANDS")
            for path in commands { page += Self.section(for: path) }
        }
        for section in info.sections {
            page += [".SH \"\(Roff.escape(section.title.uppercased()))\"", Roff.paragraphs(section.text)]
        }
        let seeAlso = Roff.seeAlso(info.seeAlso)
        if !seeAlso.isEmpty { page.append(seeAlso) }
        return page.joined(separator: "\n") + "\n"
    }

    /// One command: a subsection titled with its words, its abstract, usage and help, and its own
    /// arguments and options (the global ones are described where they are declared).
    private static func section(for path: [any ParsableCommand.Type]) -> [String] {
        guard let command = path.last else { return [] }
        let words = path.dropFirst().map { $0.configuration.name }.joined(separator: " ")
        var lines = [".SS \"\(Roff.escape(words))\"", Roff.paragraphs(command.configuration.abstract), usage(path)]
        if let discussion = command.configuration.discussion { lines.append(Roff.paragraphs(discussion)) }
        lines += entries(for: path, includingHelp: false)
        if command.isGroup {
            let names = command.visibleSubcommands.map { Roff.bold($0.configuration.name) }
            lines += [".PP", "Commands: " + names.joined(separator: ", ") + "."]
        }
        return lines
    }

    /// The usage line of the command at the end of `path`, filled to the page width.
    private static func usage(_ path: [any ParsableCommand.Type]) -> String {
        let lines = TextFill.lines(HelpRenderer(path: path).usage(), width: 78, indent: 4)
        return ".PP\n.nf\n" + lines.map(Roff.escape).joined(separator: "\n") + "\n.fi"
    }

    /// The positionals, then the options, of the command at the end of `path`, as tagged paragraphs.
    private static func entries(for path: [any ParsableCommand.Type], includingHelp: Bool = true) -> [String] {
        guard let command = path.last else { return [] }
        var entries: [String] = []
        for spec in command.arguments where spec.kind == .positional {
            entries.append(Roff.tagged(Roff.italic(spec.valueName), describe(spec)))
        }
        for spec in command.arguments where spec.kind != .positional {
            var tag = Roff.bold("--" + spec.name)
            if let short = spec.shortName { tag = Roff.bold("-\(short)") + ", " + tag }
            if spec.kind == .option { tag += " " + Roff.italic(spec.valueName) }
            entries.append(Roff.tagged(tag, describe(spec)))
        }
        if includingHelp {
            if path.count == 1, command.configuration.version != nil {
                entries.append(Roff.tagged(Roff.bold("--version"), "Show the version and exit."))
            }
            entries.append(Roff.tagged(Roff.bold("-h") + ", " + Roff.bold("--help"), "Show help for the command given before it."))
        }
        return entries
    }

    private static func describe(_ spec: ArgumentSpec) -> String {
        spec.annotatedHelp + (spec.isGlobal ? " Applies to every command below." : "")
    }
}

extension String {
    fileprivate var droppingFinalPeriod: String { hasSuffix(".") ? String(dropLast()) : self }
}
