import DBus
import TBRCommandLine
import TBRDBusAPI
import TBRDocuments

/// `tbrctl doctor [-d ROUTER]`: tbrd's checks of a border router and of this host.
struct Doctor: ControlCommand {
    static let configuration = CommandConfiguration(
        name: "doctor",
        abstract: "Check a border router and this host for what keeps Thread devices unreachable.",
        discussion: """
            Asks tbrd to check one border router and this host, one line per check, each saying what it \
            read: agent-reachable, thread-attached, rcp-version, network-key (a well-known or all-zero key), \
            omr-route (this host has a route to the mesh's OMR prefix), ra-route-info (for routers on other \
            hosts: accept_ra and accept_ra_rt_info_max_plen of this host's LAN interfaces), multi-ail, \
            cca-failure-rate, nat64 and internet-access-policy (against the structure's policy), \
            thread-networks (more than one Thread network on mDNS), firewall (tbrd's nftables table) and \
            avahi. A check the router's transport cannot answer (REST) is unsupported, not skipped. Without \
            tbrd the only check is tbrd itself.

            With --json: {router, checks: [{id, status, message, fix}]}, status pass, warn, fail or \
            unsupported, fix empty when there is nothing to do.

            Exit status: 0 nothing failed (warnings allowed); 1 a check failed (or tbrd is not running); \
            64 several routers and no -d; 69 the bus is unavailable.
            """)
    static let arguments: [ArgumentSpec] = [.router]

    /// `-d`: the router as given.
    let router: String?

    init(_ values: ParsedValues) {
        router = values.string(ArgumentSpec.router.name)
    }

    func run(in context: CommandContext) async throws -> ExitCode {
        let report = try await RouterSession.withConnection(context) { connection in
            let backend = TbrdBackend(connection: connection)
            do {
                let ref = try await backend.resolve(router)
                return DoctorReport(router: ref.id, checks: try await backend.diagnose(ref).map { row throws(DBusValueError) in try DoctorCheck(row) })
            } catch is TbrdNotRunning {
                return DoctorReport(
                    router: router,
                    checks: [
                        DoctorCheck(
                            id: "tbrd", status: .fail, message: "tbrd is not running on the \(context.bus) bus",
                            fix: "systemctl start tbrd (or run 'tbrd --bus \(context.bus)')")
                    ])
            }
        }
        if context.json { try context.writeJSON(report) } else { context.write(report.render()) }
        return report.checks.contains { $0.status == .fail } ? .failure : .success
    }
}

extension DoctorReport {
    /// One line per check (status, id, message), the fix indented below a check that did not pass.
    func render() -> String {
        let width = checks.map(\.id.count).max() ?? 0
        var lines = ["Checks of \(router ?? "tbrd") and this host:"]
        for check in checks {
            let status = check.status == .pass ? "ok" : check.status.rawValue
            let label = status.padding(12) + check.id.padding(width + 2)
            lines.append("  " + label + check.message)
            if !check.fix.isEmpty { lines.append("  " + String(repeating: " ", count: 12 + width + 2) + "fix: " + check.fix) }
        }
        let failed = checks.filter { $0.status == .fail }.count
        let warned = checks.filter { $0.status == .warn }.count
        lines.append(failed == 0 && warned == 0 ? "Nothing wrong found." : "\(failed) failed, \(warned) warnings.")
        return lines.joined(separator: "\n")
    }
}

extension String {
    fileprivate func padding(_ width: Int) -> String { count >= width ? self + " " : self + String(repeating: " ", count: width - count) }
}

extension TbrdBackend {
    /// `Manager1.Diagnose` of `router`.
    func diagnose(_ router: RouterRef) async throws -> [DiagnosticRow] {
        let contract = TBRDBusAPI.Manager.diagnose
        let reply = try await call(manager, contract.name, [.string(router.id)], doing: "Diagnose of \(router.id)", timeout: .seconds(30))
        guard let first = reply.first, let rows = try? [DiagnosticRow](dbusValue: first) else {
            throw ControlError.failure("Diagnose of \(router.id) failed: tbrd's reply is not a(ssss)")
        }
        return rows
    }
}
