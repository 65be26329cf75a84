import TBRCommandLine
import TBRFoundation

/// `tbrctl __complete routers|structures`: the values the completion scripts offer for ROUTER and
/// STRUCTURE, one per line, read from tbrd. Hidden from help, the manual and completion. A completion
/// must never hang or print errors into the command line being typed: without an answer from tbrd
/// within a second it prints nothing and exits 0.
struct CompleteValues: ControlCommand {
    static let configuration = CommandConfiguration(
        name: "__complete", abstract: "Print router ids or structure names for shell completion.", hidden: true)

    static let arguments: [ArgumentSpec] = [
        .positional("kind", valueName: "routers|structures", help: "What to print."),
    ]

    /// The value names of the tree whose values only tbrd knows, and the words that ask for them.
    static let dynamicValues: [String: [String]] = [
        "ROUTER": [configuration.name, "routers"], "STRUCTURE": [configuration.name, "structures"],
    ]

    let listsRouters: Bool

    init(_ values: ParsedValues) throws(UsageError) {
        let kind: String = try values.required("kind")
        guard kind == "routers" || kind == "structures" else {
            throw UsageError("invalid value '\(kind)' for KIND: expected routers or structures")
        }
        listsRouters = kind == "routers"
    }

    func run(in context: CommandContext) async throws -> ExitCode {
        let listsRouters = listsRouters
        let outcome = try? await TimeLimit.run(.seconds(1), clock: context.clock) {
            try await RouterSession.withTbrd(context, for: "completion") { tbrd in
                listsRouters ? try await tbrd.routers().map(\.id) : try await tbrd.structures().map(\.name)
            }
        }
        if case .finished(let names) = outcome {
            for name in names where !name.contains(where: { $0.isWhitespace || $0.isNewline }) { context.write(name) }
        }
        return .success
    }
}
