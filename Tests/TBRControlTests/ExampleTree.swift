import TBRCommandLine

// A small command tree, independent of tbrctl's, that exercises every parser feature:
//
//   tool [--json] [--bus ADDRESS] <command>
//     net <command>
//       show [--reveal-secrets] [-d ROUTER] INPUT
//       make [--name NAME] [-c CHANNEL] [--tag TAG ...] [--seconds SECONDS]
//     codes CODE ...

struct ExampleRoot: CommandGroup {
    static let configuration = CommandConfiguration(
        name: "tool", abstract: "An example tool.", version: "1.2.3", subcommands: [Net.self, Codes.self])
    static let arguments: [ArgumentSpec] = [
        .flag("json", help: "Print JSON.", global: true),
        .option("bus", valueName: "ADDRESS", help: "The bus to use.", default: "system", global: true),
    ]
}

struct Net: CommandGroup {
    static let configuration = CommandConfiguration(
        name: "net", abstract: "Work with networks.", subcommands: [Show.self, Make.self])
}

struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "show", abstract: "Show a network.", discussion: "Reads INPUT, or standard input for -.")
    static let arguments: [ArgumentSpec] = [
        .flag("reveal-secrets", help: "Show secrets."),
        .option("router", short: "d", valueName: "ROUTER", help: "The router."),
        .positional("input", valueName: "INPUT", help: "What to show, or - for standard input."),
    ]

    let input: String
    let router: String?
    let revealSecrets: Bool
    let json: Bool
    let bus: String?

    init(_ values: ParsedValues) throws(UsageError) {
        input = try values.required("input")
        router = values.string("router")
        revealSecrets = values.flag("reveal-secrets")
        json = values.flag("json")
        bus = values.string("bus")
    }
}

struct Make: ParsableCommand {
    static let configuration = CommandConfiguration(name: "make", abstract: "Make a network.")
    static let arguments: [ArgumentSpec] = [
        .option("name", valueName: "NAME", help: "The network name."),
        .option("channel", short: "c", valueName: "CHANNEL", help: "The channel, 11 to 26."),
        .option("tag", valueName: "TAG", help: "A tag.", repeatable: true),
        .option("seconds", valueName: "SECONDS", help: "How long.", default: "120"),
    ]

    let name: String?
    let channel: Int?
    let tags: [String]
    let seconds: Int

    init(_ values: ParsedValues) throws(UsageError) {
        name = values.string("name")
        channel = try values.value("channel") { (word) throws(ArgumentValueError) -> Int in
            guard let n = Int(word), (11...26).contains(n) else { throw ArgumentValueError("a channel is 11 to 26") }
            return n
        }
        tags = values.strings("tag")
        seconds = try values.required("seconds")
    }

    func validate() throws(UsageError) {
        if tags.count > 2 { throw UsageError("at most two --tag options are allowed") }
    }
}

struct Codes: ParsableCommand {
    static let configuration = CommandConfiguration(name: "codes", abstract: "Check codes.")
    static let arguments: [ArgumentSpec] = [
        .positional("code", valueName: "CODE", help: "A code.", repeatable: true),
    ]

    let codes: [String]

    init(_ values: ParsedValues) throws(UsageError) { codes = values.strings("code") }
}
