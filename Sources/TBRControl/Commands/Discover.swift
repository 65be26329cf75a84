import BorderAgentDiscovery
import MDNS
import TBRCommandLine
import TBRFoundation

/// `tbrctl discover [--timeout SECONDS]`: the Thread Border Agents on the LAN, from mDNS.
struct Discover: ControlCommand {
    static let configuration = CommandConfiguration(
        name: "discover",
        abstract: "List the Thread border agents on the LAN (mDNS _meshcop._udp), grouped by network.",
        discussion: """
            Browses _meshcop._udp and _meshcop-e._udp through avahi-daemon for --timeout seconds and lists \
            every border agent found (any vendor), grouped by network: instance name, vendor and model, \
            role, ePSKc support and whether a key is active, addresses and port, and whether tbrd manages \
            it (one of tbrd's routers has its Border Agent ID). Each agent is then asked, on every address \
            at once and for about a second in all, whether it serves otbr-agent's REST API on port 8081 \
            (/.well-known/thread/br-rest): its URL is shown as restUrl, for 'tbrctl router add'. Works without \
            tbrd. A TXT record that is malformed is shown with its problems, never dropped.

            Exit status: 0 (also when nothing is found), 69 when avahi-daemon is not running.
            """)
    static let arguments: [ArgumentSpec] = [
        .option("timeout", valueName: "SECONDS", help: "How long to browse.", default: "3")
    ]

    /// `--timeout`.
    let timeout: Duration

    init(_ values: ParsedValues) throws(UsageError) {
        let seconds = try values.value("timeout") { (word) throws(ArgumentValueError) -> Double in
            guard let s = Double(word), s > 0, s <= 3600 else {
                throw ArgumentValueError("a timeout is a number of seconds above 0 and at most 3600, such as 3 or 0.5")
            }
            return s
        }
        timeout = .milliseconds(Int64((seconds ?? 3) * 1000))
    }

    func run(in context: CommandContext) async throws -> ExitCode {
        let mdns = MDNSClient()
        do { try await mdns.connect(requireDaemon: true) } catch { throw ControlError.unavailable(error.message) }
        let table = await BorderAgentBrowser(client: mdns, clock: context.clock).run(until: context.clock.now().advanced(by: timeout))
        await mdns.close()
        let managed = await ManagedAgents.lookUp(context)
        let agents = table.all
        let urls = await RESTProbe.urls(of: agents.map(\.addresses))
        let rows = DiscoveredAgentRow.sorted(
            agents.enumerated().map { i, agent in
                var row = DiscoveredAgentRow(agent, managedBy: managed)
                row.restUrl = urls[i]
                return row
            })
        if context.json {
            try context.writeJSON(rows)
        } else if rows.isEmpty {
            context.write("no border agents found (browsed for \(Self.seconds(timeout)) s)")
        } else {
            context.write(Self.render(rows))
        }
        return .success
    }

    /// The text form: a heading per network, then one block per agent.
    static func render(_ rows: [DiscoveredAgentRow]) -> String {
        var lines: [String] = []
        var network: String?
        for row in rows {
            if row.network != network {
                if network != nil { lines.append("") }
                network = row.network
                lines.append(row.network)
            }
            let vendor = [row.vendorName, row.modelName].compactMap { $0 }.map { Quoted($0).description }.joined(separator: " ")
            var facts = [row.role ?? "role unknown", row.epskcSupported ? (row.epskcActive ? "ePSKc active" : "ePSKc") : "no ePSKc"]
            facts.append(row.managed ? "managed by tbrd as \(row.router ?? "?")" : "not managed")
            lines.append("  \(Quoted(row.instance))  \(vendor.isEmpty ? "-" : vendor)")
            lines.append("    \(facts.joined(separator: ", "))")
            lines.append("    \(row.addresses.isEmpty ? "-" : row.addresses.joined(separator: " ")) port \(row.port)")
            if let id = row.borderAgentId { lines.append("    border agent \(id)") }
            if let url = row.restUrl { lines.append("    REST API \(url)") }
            for problem in row.problems { lines.append("    problem: \(problem)") }
        }
        return lines.joined(separator: "\n")
    }

    static func seconds(_ d: Duration) -> String {
        let ms = d.milliseconds()
        return ms % 1000 == 0 ? "\(ms / 1000)" : "\(Double(ms) / 1000)"
    }
}
