import Testing
import TBRCommandLine

/// The parser, in-process, on the example tree.
@Suite struct CommandParserTests {
    let parser = CommandParser(root: ExampleRoot.self)

    struct NotACommand: Error {}

    func parse<C: ParsableCommand>(_ arguments: [String], as _: C.Type) throws -> C {
        guard case .command(let command, _) = try parser.parse(arguments), let typed = command as? C else {
            throw NotACommand()
        }
        return typed
    }

    func usageError(_ arguments: [String]) -> UsageError? {
        do {
            _ = try parser.parse(arguments)
            return nil
        } catch {
            return error
        }
    }

    @Test func globalOptionsBeforeOrAfterTheCommandWords() throws {
        let lines = [
            ["--json", "--bus", "session", "net", "show", "x"],
            ["net", "show", "x", "--json", "--bus", "session"],
            ["net", "--json", "show", "--bus=session", "x"],
        ]
        for line in lines {
            let show = try parse(line, as: Show.self)
            #expect(show.json && show.bus == "session" && show.input == "x", "\(line)")
        }
        let plain = try parse(["net", "show", "x"], as: Show.self)
        #expect(!plain.json && plain.bus == "system", "the default applies")
    }

    @Test func commandOptionsMayAlsoStandBeforeTheCommandWords() throws {
        let show = try parse(["--reveal-secrets", "-d", "wpan0", "net", "show", "x"], as: Show.self)
        #expect(show.revealSecrets && show.router == "wpan0")
    }

    @Test func valueSpellings() throws {
        for line in [["--name", "A"], ["--name=A"]] {
            #expect(try parse(["net", "make"] + line, as: Make.self).name == "A")
        }
        for line in [["-c", "15"], ["-c15"], ["--channel", "15"], ["--channel=15"]] {
            #expect(try parse(["net", "make"] + line, as: Make.self).channel == 15)
        }
        #expect(try parse(["net", "make", "--name="], as: Make.self).name == "", "an empty inline value is a value")
        #expect(try parse(["net", "make", "--name", "-"], as: Make.self).name == "-")
    }

    @Test func dashIsAPositionalAndDoubleDashEndsOptions() throws {
        #expect(try parse(["net", "show", "-"], as: Show.self).input == "-")
        let show = try parse(["net", "show", "--", "--json"], as: Show.self)
        #expect(show.input == "--json" && !show.json)
        #expect(try parse(["codes", "--", "-1", "--x"], as: Codes.self).codes == ["-1", "--x"])
    }

    @Test func repeatedOptionsWhereDeclared() throws {
        let make = try parse(["net", "make", "--tag", "a", "--tag=b"], as: Make.self)
        #expect(make.tags == ["a", "b"])
        #expect(try parse(["codes", "1", "2", "3"], as: Codes.self).codes == ["1", "2", "3"])
        #expect(usageError(["net", "make", "--name", "a", "--name", "b"])?.message
            == "option '--name' is given more than once")
    }

    @Test func defaultsAndTypedValues() throws {
        #expect(try parse(["net", "make"], as: Make.self).seconds == 120)
        #expect(try parse(["net", "make", "--seconds", "5"], as: Make.self).seconds == 5)
        #expect(usageError(["net", "make", "--seconds", "soon"])?.message
            == "invalid value 'soon' for '--seconds': expected a whole number from \(Int.min) to \(Int.max)")
        #expect(usageError(["net", "make", "-c", "27"])?.message
            == "invalid value '27' for '--channel': a channel is 11 to 26")
    }

    @Test func validateRunsAfterParsing() {
        let error = usageError(["net", "make", "--tag", "a", "--tag", "b", "--tag", "c"])
        #expect(error?.message == "at most two --tag options are allowed")
        #expect(error?.commandPath == ["tool", "net", "make"], "the parser fills in where the error belongs")
        #expect(error?.helpHint == "Run 'tool net make --help' for usage.")
    }

    @Test func usageErrorsNameTheOffendingWord() {
        let cases: [([String], String)] = [
            (["net", "show", "x", "--frob"], "unknown option '--frob'"),
            (["--frob=1", "net", "show", "x"], "unknown option '--frob=1'"),
            (["net", "show", "x", "-q"], "unknown option '-q'"),
            (["net", "shw", "x"], "unknown command 'shw' for 'tool net'; expected one of: show, make"),
            (["net", "show"], "missing INPUT for 'tool net show'"),
            (["net", "show", "x", "y"], "unexpected argument 'y' for 'tool net show'"),
            (["net", "show", "x", "-d"], "missing value for '-d'; expected ROUTER"),
            (["net", "make", "--name", "--tag", "a"], "missing value for '--name'; expected NAME"),
            (["net", "show", "x", "--json=yes"], "'--json' is a flag and takes no value"),
            (["net", "make", "--reveal-secrets"], "option '--reveal-secrets' does not apply to 'tool net make'"),
            (["net"], "missing command for 'tool net'; expected one of: show, make"),
            ([], "missing command for 'tool'; expected one of: net, codes"),
        ]
        for (line, message) in cases {
            #expect(usageError(line)?.message == message, "\(line)")
        }
    }

    @Test func helpAtEveryLevel() throws {
        for line in [["--help"], ["-h"], ["help"], ["--json", "--help"]] {
            guard case .help(let text) = try parser.parse(line) else { throw NotACommand() }
            #expect(text == parser.helpText(for: []), "\(line)")
        }
        for line in [["net", "show", "--help"], ["help", "net", "show"], ["net", "show", "-h", "--frob"]] {
            guard case .help(let text) = try parser.parse(line) else { throw NotACommand() }
            #expect(text == parser.helpText(for: ["net", "show"]), "\(line)")
        }
        guard case .version(let line) = try parser.parse(["--version"]) else { throw NotACommand() }
        #expect(line == "tool 1.2.3")
    }

    /// Help of a command that does not exist is not the parent's help: a usage error, as without --help.
    @Test func helpForAnUnknownCommandIsAUsageError() {
        for line in [["frob", "--help"], ["net", "frob", "--help"], ["help", "frob"], ["net", "frob", "-h"]] {
            let error = usageError(line)
            #expect(error?.message.hasPrefix("unknown command 'frob' for") == true, "\(line): \(String(describing: error))")
        }
    }

    @Test func helpListsCommandsOptionsValueNamesAndDefaults() throws {
        let root = try #require(parser.helpText(for: []))
        #expect(root.contains("USAGE: tool [--json] [--bus ADDRESS] [--version] <command>"))
        #expect(root.contains("  net                     Work with networks."))
        #expect(root.contains("  --bus ADDRESS           The bus to use. (default: system)"))
        #expect(root.contains("  -h, --help              Show help for this command."))

        let show = try #require(parser.helpText(for: ["net", "show"]))
        #expect(show.hasPrefix("OVERVIEW: Show a network.\n\nReads INPUT, or standard input for -.\n"))
        #expect(show.contains("USAGE: tool net show [--reveal-secrets] [--router ROUTER] INPUT"))
        #expect(show.contains("ARGUMENTS:\n  INPUT                   What to show, or - for standard input."))
        #expect(show.contains("  -d, --router ROUTER     The router."))
        #expect(show.contains("GLOBAL OPTIONS:\n  --json"), "inherited options are listed apart")
        #expect(!show.contains("--version"))

        let make = try #require(parser.helpText(for: ["net", "make"]))
        #expect(make.contains("[--tag TAG ...]"))
        #expect(make.contains("A tag. (repeatable)"))
        #expect(make.contains("How long. (default: 120)"))
        #expect(parser.helpText(for: ["nope"]) == nil)
    }

    @Test func treeChecks() {
        #expect(CommandTree(root: ExampleRoot.self).problems() == [])
        #expect(CommandTree(root: BrokenRoot.self).problems() == [
            "'broken' declares '--help', which the parser reserves",
            "'broken' has both subcommands and positional arguments",
            "'broken leaf' declares '--json' twice",
            "'broken leaf' declares '--json' differently from elsewhere in the tree",
            "'broken leaf': only the last positional may be repeatable",
        ])
    }
}

private struct BrokenRoot: CommandGroup {
    static let configuration = CommandConfiguration(name: "broken", abstract: "", subcommands: [BrokenLeaf.self])
    static let arguments: [ArgumentSpec] = [
        .flag("json", help: "", global: true),
        .flag("help", help: ""),
        .positional("x", valueName: "X", help: ""),
    ]
}

private struct BrokenLeaf: CommandGroup {
    static let configuration = CommandConfiguration(name: "leaf", abstract: "")
    static let arguments: [ArgumentSpec] = [
        .option("json", valueName: "J", help: ""),
        .positional("a", valueName: "A", help: "", repeatable: true),
        .positional("b", valueName: "B", help: ""),
    ]
}
