import BorderRouterService
import TBRCommandLine
import TBRDBusAPI
import TBRDocuments
import TBRFoundation

/// `tbrctl health [history [--since DURATION] [--router ROUTER] | watch]`: what tbrd watches all the time
/// (issue 49).
struct Health: ControlCommand {
    static let configuration = CommandConfiguration(
        name: "health",
        abstract: "Show the problems tbrd has found and keeps open, their history, or each as it opens and closes (needs tbrd).",
        discussion: """
            tbrd runs the doctor's checks of each router all the time: when its role or presence changes, \
            and every health-interval seconds (tbrd.conf). A failing check opens a problem; a passing one \
            closes it. router-lost opens when a router that was router or leader becomes less or goes away. \
            Problems about the host (avahi, firewall) have the subject host.

            Without a word: the open problems, oldest first; exit 1 when there is one. history: the problems \
            open at some moment in the last --since (default 24h; 30m, 12h, 7d or seconds), of --router \
            (-d) only (host: the host's problems); closed ones are kept health-retention days. watch: each problem as it \
            opens and closes, until interrupted.

            With --json: an array of {id, subject, check, message, fix, openedAt, closedAt} (times in ISO \
            8601 UTC, closedAt null while open); watch prints one object a line: {event (opened or closed), \
            id, subject, check, message, fix}. Exit status: 0; 1 a problem is open (without a word); 64; 69 \
            no tbrd.
            """)
    static let arguments: [ArgumentSpec] = [
        .positional("view", valueName: "history|watch", help: "history: past problems; watch: each as it opens and closes.", required: false),
        .option("since", valueName: "DURATION", help: "history: how far back (default 24h): 30m, 12h, 7d or seconds."),
        .router,
    ]

    enum View: String { case now, history, watch }

    let view: View
    let seconds: Double
    let router: String?

    init(_ values: ParsedValues) throws(UsageError) {
        let word = values.string("view")
        guard let view = word.map({ View(rawValue: $0) }) ?? .now, view != .now || word == nil else {
            throw UsageError("the view is history or watch, not \(Quoted(word ?? ""))")
        }
        self.view = view
        router = values.string(ArgumentSpec.router.name)
        let since = values.string("since")
        if view != .history, since != nil || router != nil { throw UsageError("--since and --router go with history") }
        guard let seconds = Self.seconds(since ?? "24h") else {
            throw UsageError("--since is a duration such as 30m, 12h, 7d, or a number of seconds above 0")
        }
        self.seconds = seconds
    }

    /// `text` as seconds: a number with `s`, `m`, `h` or `d`, or without.
    static func seconds(_ text: String) -> Double? {
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
        var digits = Substring(text)
        var unit = 1.0
        if let last = digits.last, let scale = units[last] {
            unit = scale
            digits = digits.dropLast()
        }
        guard let value = Double(digits), value > 0, value.isFinite, value * unit <= 3650 * 86_400 else { return nil }
        return value * unit
    }

    /// A row as the document every adapter prints (`closedAt` null while open).
    static func problem(_ row: ProblemRow) -> HealthProblem {
        HealthProblem(
            id: Int64(clamping: row.id), subject: row.subject, check: row.check, message: row.message, fix: row.fix,
            openedAt: WallTime(secondsSinceEpoch: row.openedAt), closedAt: row.closedAt > 0 ? WallTime(secondsSinceEpoch: row.closedAt) : nil)
    }

    struct Change: Encodable {
        var event: String
        var id: UInt64
        var subject: String
        var check: String
        var message: String
        var fix: String
    }

    func run(in context: CommandContext) async throws -> ExitCode {
        if view == .watch {
            try await RouterSession.withTbrd(context, for: "'health watch'") { tbrd in
                try await tbrd.watchProblems { opened, row in
                    if context.json {
                        try context.writeJSONLine(
                            Change(event: opened ? "opened" : "closed", id: row.id, subject: row.subject, check: row.check, message: row.message, fix: row.fix))
                    } else {
                        context.write(opened ? "opened \(row.subject) \(row.check): \(row.message)" : "closed \(row.subject) \(row.check)")
                    }
                    return true
                }
            }
            return .success
        }
        let rows = try await RouterSession.withTbrd(context, for: "'health'") { tbrd in
            try await tbrd.problems(history: view == .history, seconds: seconds, router: router)
        }
        let lines = rows.map(Self.problem)
        if context.json {
            try context.writeJSON(lines)
        } else if lines.isEmpty {
            context.write(view == .history ? "no problem in that time" : "no open problem")
        } else {
            let header = view == .history ? ["SUBJECT", "CHECK", "OPENED", "CLOSED", "MESSAGE"] : ["SUBJECT", "CHECK", "SINCE", "MESSAGE", "FIX"]
            context.write(
                TextTable.render(
                    header: header,
                    rows: lines.map {
                        view == .history
                            ? [$0.subject, $0.check, $0.openedAt.description, $0.closedAt?.description ?? "open", $0.message]
                            : [$0.subject, $0.check, $0.openedAt.description, $0.message, $0.fix]
                    }))
        }
        return view == .now && !rows.isEmpty ? .failure : .success
    }
}
