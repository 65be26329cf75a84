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
            when the host's routes or what mDNS shows change, when a structure changes, and every \
            health-interval seconds (tbrd.conf). A failing check opens a problem; a passing one closes it. \
            Besides the doctor's: router-lost (a router that was router or leader becomes less or goes \
            away), partition (routers of one structure on one network in different partitions), \
            meshcop-published (a router's _meshcop._udp service leaves mDNS while its agent is up) and \
            matter-unavailable (the Matter server cannot reach a node of a structure; subject node N, with \
            its last known Thread parent). Problems about the host (avahi, firewall) have the subject host.

            Without a word: the open problems, oldest first; exit 1 when there is one. history: the problems \
            open at some moment in the last --since (default 24h; 30m, 12h, 7d or seconds) and what \
            changed about each router (role, partition, router and child counts) and Matter node \
            (availability), as one timeline, of --router (-d) only (host: the host's problems; node N: a \
            Matter node's); history is kept health-retention days. watch: each problem as it opens and \
            closes, until interrupted.

            With --json: an array of {id, subject, check, message, fix, openedAt, closedAt} (times in ISO \
            8601 UTC, closedAt null while open); history prints {problems: [those], samples: [{at, subject, \
            and what changed of state, partition, routers, children}]}; watch prints one object a line: \
            {event (opened or closed), id, subject, check, message, fix}. Exit status: 0; 1 a problem is open (without a word); 64; 69 \
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
        if view == .history { return try await history(in: context) }
        let rows = try await RouterSession.withTbrd(context, for: "'health'") { tbrd in
            try await tbrd.problems(history: false, seconds: seconds, router: router)
        }
        let lines = rows.map(Self.problem)
        if context.json {
            try context.writeJSON(lines)
        } else if lines.isEmpty {
            context.write("no open problem")
        } else {
            context.write(
                TextTable.render(
                    header: ["SUBJECT", "CHECK", "SINCE", "MESSAGE", "FIX"],
                    rows: lines.map { [$0.subject, $0.check, $0.openedAt.description, $0.message, $0.fix] }))
        }
        return rows.isEmpty ? .success : .failure
    }

    /// `history`: problems and samples, as one document (`--json`) or one timeline.
    private func history(in context: CommandContext) async throws -> ExitCode {
        let (problemRows, sampleRows) = try await RouterSession.withTbrd(context, for: "'health history'") { tbrd in
            (try await tbrd.problems(history: true, seconds: seconds, router: router), try await tbrd.samples(seconds: seconds, router: router))
        }
        let history = HealthHistory(problems: problemRows.map(Self.problem), samples: sampleRows.map(Self.sample))
        if context.json {
            try context.writeJSON(history)
            return .success
        }
        guard !history.problems.isEmpty || !history.samples.isEmpty else {
            context.write("nothing happened in that time")
            return .success
        }
        var events: [(at: Double, row: [String])] = history.samples.map { ($0.at.secondsSinceEpoch, [$0.at.description, $0.subject, Self.describe($0)]) }
        for p in history.problems {
            events.append((p.openedAt.secondsSinceEpoch, [p.openedAt.description, p.subject, "opened \(p.check): \(p.message)"]))
            if let closed = p.closedAt { events.append((closed.secondsSinceEpoch, [closed.description, p.subject, "closed \(p.check)"])) }
        }
        let rows = events.sorted { $0.at < $1.at }.map(\.row)
        context.write(TextTable.render(header: ["TIME", "SUBJECT", "WHAT"], rows: rows))
        return .success
    }

    /// A sample row as the document (`-1` and `""`: did not change).
    static func sample(_ row: SampleRow) -> HealthSample {
        HealthSample(
            at: WallTime(secondsSinceEpoch: row.at), subject: row.subject, state: row.state.isEmpty ? nil : row.state,
            partition: row.partition >= 0 ? UInt32(truncatingIfNeeded: row.partition) : nil, routers: row.routers >= 0 ? Int(row.routers) : nil,
            children: row.children >= 0 ? Int(row.children) : nil)
    }

    /// `role leader, partition 0x1a2b3c4d, 3 routers, 2 children`.
    static func describe(_ s: HealthSample) -> String {
        var parts: [String] = []
        if let state = s.state { parts.append(s.subject.hasPrefix("node ") ? state : "role \(state)") }
        if let partition = s.partition { parts.append("partition " + HealthSample.partitionText(partition)) }
        if let routers = s.routers { parts.append(routers == 1 ? "1 router" : "\(routers) routers") }
        if let children = s.children { parts.append(children == 1 ? "1 child" : "\(children) children") }
        return parts.joined(separator: ", ")
    }
}
