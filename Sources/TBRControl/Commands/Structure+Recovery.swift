import TBRCommandLine
import TBRCore
import TBRDBusAPI
import TBRFoundation

extension Structure {
    /// `tbrctl structure recovery STRUCTURE [off|ask|auto]`: shows or sets what tbrd does when a router of
    /// the structure comes back with no network.
    struct Recovery: ControlCommand {
        static let configuration = CommandConfiguration(
            name: "recovery",
            abstract: "Show or set what tbrd does when a router of the structure comes back empty.",
            discussion: """
                A router of the structure that appears with no Active dataset (reset, reflashed, a new \
                radio, an add-on that wiped it), or loses it while its agent runs, is noticed within seconds. \
                off: tbrd does nothing. ask (the default): tbrd reports it (the RouterEmpty signal, the \
                recovery event of the HTTPS API, a failing structure-network check of tbrctl doctor) and \
                'tbrctl structure recover' joins it back. auto: tbrd joins it to the structure's preferred \
                network at once and reports that it did. A router on another network than the preferred one \
                is reported diverged and never moved. tbrd never touches a router outside a structure, one it \
                made leave itself, nor one whose structure has no preferred network with credentials held. \
                With --json: {structure, recovery}.
                """)
        static let arguments: [ArgumentSpec] = [
            .positional("structure", valueName: "STRUCTURE", help: "The structure's name."),
            .positional("mode", valueName: "off|ask|auto", help: "The recovery to set (without it, the current one is shown).", required: false),
        ]

        let structure: String
        let mode: String?

        init(_ values: ParsedValues) throws(UsageError) {
            structure = try values.required("structure")
            mode = values.string("mode")
            if let mode, !TBRDBusAPI.Structure.recoveryModes.contains(mode) { throw UsageError("the recovery is off, ask or auto, not \(Quoted(mode))") }
        }

        func run(in context: CommandContext) async throws -> ExitCode {
            let now = try await RouterSession.withTbrd(context, for: "'structure recovery'") { tbrd in
                try await tbrd.recovery(of: structure, setting: mode)
            }
            if context.json { try context.writeJSON(["structure": structure, "recovery": now]) } else { context.write("\(structure): recovery \(now)") }
            return .success
        }
    }

    /// `tbrctl structure recover STRUCTURE [ROUTER]`: joins the structure's routers that have no network
    /// back to its preferred network now.
    struct Recover: ControlCommand {
        static let configuration = CommandConfiguration(
            name: "recover",
            abstract: "Join the structure's routers that have no network back to its preferred network now.",
            discussion: """
                Checks each router of the structure (or only ROUTER): one with no Active dataset joins the \
                structure's preferred network (only itself: its mesh, if any, stays), whatever the \
                structure's recovery says; one on another network is reported diverged and left there \
                ('tbrctl structure migrate' moves a structure onto one network). Prints each router's state: \
                ok, rejoined, failed, diverged. With --json: [{router, state, network, routerNetwork, detail}]. \
                Exit status: 0 no router failed; 1 one failed; 65 the structure has no preferred network; 1 \
                tbrd holds no credentials for it.
                """)
        static let arguments: [ArgumentSpec] = [
            .positional("structure", valueName: "STRUCTURE", help: "The structure's name."),
            .positional("router", valueName: "ROUTER", help: "Only this router.", required: false),
        ]

        let structure: String
        let router: String?

        init(_ values: ParsedValues) throws(UsageError) {
            structure = try values.required("structure")
            router = values.string("router")
        }

        func run(in context: CommandContext) async throws -> ExitCode {
            let rows = try await RouterSession.withTbrd(context, for: "'structure recover'") { tbrd in try await tbrd.recover(structure, router: router) }
                .map { try RecoveryLine($0) }
            if context.json {
                try context.writeJSON(rows)
            } else if rows.isEmpty {
                context.write("no router of \(structure) could be checked (none is online)")
            } else {
                context.write(TextTable.render(header: ["ROUTER", "STATE", "DETAIL"], rows: rows.map { [$0.router, $0.state.rawValue, $0.detail] }))
            }
            return rows.contains { $0.state == .failed } ? .failure : .success
        }
    }
}

/// What recovery found on one router, as `structure recover --json` and `backup restore --json` print
/// it: `{router, state, network, routerNetwork, detail}`, `routerNetwork` null unless diverged.
struct RecoveryLine: Encodable {
    var router: String
    var state: RecoveryReport.State
    var network: String
    var routerNetwork: String?
    var detail: String

    /// The row with its state decoded.
    /// - Throws: ``ControlError`` for a state this tbrctl does not know (a newer tbrd).
    init(_ row: RecoveryRow) throws {
        guard let state = RecoveryReport.State(rawValue: row.state) else {
            throw ControlError.failure("tbrd reported \(row.router) in a recovery state this tbrctl does not know: \(Quoted(row.state))")
        }
        router = row.router
        self.state = state
        network = row.network
        routerNetwork = row.routerNetwork.isEmpty ? nil : row.routerNetwork
        detail = row.detail
    }
}
