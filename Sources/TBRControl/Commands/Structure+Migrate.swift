import DBus
import TBRCommandLine
import TBRDBusAPI

extension Structure {
    /// `tbrctl structure migrate STRUCTURE [--to XPANID] [--delay SECONDS] [--dry-run] [--wait] | --cancel`.
    struct Migrate: ControlCommand {
        static let configuration = CommandConfiguration(
            name: "migrate",
            abstract: "Move every router of a structure, with its mesh, onto one network (the preferred one).",
            discussion: """
                Every router of the structure that is not on the target network (default: the structure's \
                preferred network, 'tbrctl network preferred') is sent the target's dataset as a pending \
                dataset, so its whole mesh moves with it when the delay ends and no device needs \
                commissioning again. Routers already on the target are left alone; a router offline now is \
                named and not touched. tbrd must hold the target's credentials (a router of the structure \
                on it, or 'tbrctl network fetch --structure', or 'tbrctl network add'); otherwise exit 1.

                The plan is printed first, per router: from which network, the Active Timestamp (the \
                target's) and Pending Timestamp (now) used, and the delay: --delay over REST (default 300, \
                30-86400), always 300 s over D-Bus (otbr-agent's AttachAllNodesTo takes no delay). \
                --dry-run stops there. One migration or channel change runs per structure at a time (the \
                lock is in tbrd's state database and survives a restart): another is refused with exit 75, \
                saying what is pending and the time left. tbrd follows each router: 'moved' as soon as it \
                is on the target, 'failed' with the reason if it is not 30 s after its delay ended (offline, \
                still on its network, on neither). 'structure show' shows the migration with the time \
                left per router, and Structure1.Migration signals each change. --wait blocks until every \
                router is judged and exits 1 if any failed.

                --cancel, before the move takes effect, sends each pending router the current network \
                again with a newer Active Timestamp: over REST a newer pending dataset, which replaces \
                tbrd's; over D-Bus an active dataset, which stops a channel change but cannot stop a move \
                to another network key (OpenThread applies a pending dataset with another key whatever the \
                timestamps); such a router is reported as not cancelled. Admins only.

                --json: the migration {kind, state, targetExtPanId, targetNetworkName, targetChannel, \
                startedAt, dueAt, detail, steps: [{router, transport, action, fromExtPanId, \
                fromNetworkName, fromChannel, activeTimestamp, pendingTimestamp, delayMs, dueAt, outcome, \
                detail}]}.

                Exit status: 0 planned, started, cancelled, or (--wait) every router moved; 1 a router \
                failed (--wait), no credentials for the target, nothing to cancel, an unknown structure; \
                64 usage; 65 a bad XPANID or delay; 69 no tbrd; 75 another migration is pending; 77 not \
                allowed.
                """)
        static let arguments: [ArgumentSpec] = [
            .positional("structure", valueName: "STRUCTURE", help: "The structure's name."),
            .option("to", valueName: "XPANID", help: "The target network's Extended PAN ID (default: the preferred network)."),
            .option("delay", valueName: "SECONDS", help: "The pending dataset's delay over REST (30-86400, default 300)."),
            .flag("dry-run", help: "Print the plan; send nothing."),
            .flag("wait", help: "Wait until every router is moved or failed; exit 1 if any failed."),
            .flag("cancel", help: "Cancel the pending migration or channel change of the structure."),
        ]

        let structure: String
        let to: String?
        let delay: UInt32
        let dryRun: Bool
        let wait: Bool
        let cancel: Bool

        init(_ values: ParsedValues) throws(UsageError) {
            structure = try values.required("structure")
            to = values.string("to")
            delay = try Self.delay(values)
            dryRun = values.flag("dry-run")
            wait = values.flag("wait")
            cancel = values.flag("cancel")
            if cancel, to != nil || dryRun || values.string("delay") != nil {
                throw UsageError("--cancel takes no --to, --delay or --dry-run")
            }
            if dryRun, wait { throw UsageError("--dry-run sends nothing, so there is nothing to --wait for") }
        }

        /// `--delay` as given (checked by tbrd: 30-86400), default 300.
        static func delay(_ values: ParsedValues) throws(UsageError) -> UInt32 {
            try values.value("delay") { (text) throws(ArgumentValueError) -> UInt32 in
                guard let s = UInt32(text) else { throw ArgumentValueError("the delay is a whole number of seconds (30-86400)") }
                return s
            } ?? 300
        }

        func run(in context: CommandContext) async throws -> ExitCode {
            typealias API = TBRDBusAPI.Structure
            if cancel {
                return try await Self.run(
                    structure, API.cancelMigration.name, [], doing: "cancelling the migration", wait: false, context: context)
            }
            return try await Self.run(
                structure, API.migrate.name, [.string(to?.lowercased() ?? ""), .uint32(delay), .bool(dryRun)],
                doing: "migrating \(structure)", wait: wait, context: context)
        }

        /// Calls `member` of the structure (a migration or channel change), with `wait` follows it until no
        /// router is pending, and prints it; with `wait` the exit status says whether every router moved.
        static func run(
            _ structure: String, _ member: MemberName, _ arguments: [DBusValue], doing: String, wait: Bool, context: CommandContext
        ) async throws -> ExitCode {
            let row = try await RouterSession.withTbrd(context, for: doing) { tbrd -> MigrationRow in
                let started = try await tbrd.migrationCall(structure, member, arguments, doing: doing)
                guard wait, started.state == .pending else { return started }
                if !context.json { context.note(MigrationText.render(started, structure: structure, now: context.clock.wallTime())) }
                return try await tbrd.waitForMigration(of: structure)
            }
            return try report(row, structure: structure, waited: wait, context: context)
        }

        /// Prints `row`; with `waited` the exit status says whether every router moved.
        static func report(_ row: MigrationRow, structure: String, waited: Bool, context: CommandContext) throws -> ExitCode {
            if context.json { try context.writeJSON(row) } else { context.write(MigrationText.render(row, structure: structure, now: context.clock.wallTime())) }
            if waited, row.steps.contains(where: { $0.outcome == .failed }) { return .failure }
            return .success
        }
    }

    /// `tbrctl structure channel STRUCTURE (CHANNEL | --auto) [--delay SECONDS] [--dry-run] [--wait]`.
    struct SetChannel: ControlCommand {
        static let configuration = CommandConfiguration(
            name: "channel",
            abstract: "Move a structure's network to another channel, safely (a pending dataset, under the migration lock).",
            discussion: """
                The structure's network (its preferred network, or the one network its routers are on) \
                moves to CHANNEL through the same machinery as 'structure migrate': each of its routers is \
                sent the network's dataset on the new channel with an Active Timestamp one newer (the \
                leader takes a pending dataset with the same key only with a newer one), under the same \
                lock (exit 75 while another is pending), with the same plan, report, --dry-run, --wait and \
                'structure migrate --cancel'.

                --auto runs an energy scan on each of the network's routers and picks the channel whose \
                strongest energy, over all those routers, is the lowest; ties go to the lower channel \
                number. Only channels in the network's channel mask and supported by every one of its \
                routers' radios count; a router that cannot scan (REST) is left out of the choice. Already \
                on that channel: nothing is sent.

                A channel outside 11-26, outside the network's channel mask, or not supported by the radio \
                of one of the network's routers (LinkSupportedChannelMask) is refused with exit 65. Admins \
                only. --json and exit status as 'structure migrate'.
                """)
        static let arguments: [ArgumentSpec] = [
            .positional("structure", valueName: "STRUCTURE", help: "The structure's name."),
            .positional("channel", valueName: "CHANNEL", help: "The new channel (11-26); leave out with --auto.", required: false),
            .flag("auto", help: "Choose the quietest channel by the routers' energy scans."),
            .option("delay", valueName: "SECONDS", help: "The pending dataset's delay over REST (30-86400, default 300)."),
            .flag("dry-run", help: "Print the plan; send nothing."),
            .flag("wait", help: "Wait until every router is moved or failed; exit 1 if any failed."),
        ]

        let structure: String
        let channel: UInt16
        let delay: UInt32
        let dryRun: Bool
        let wait: Bool

        init(_ values: ParsedValues) throws(UsageError) {
            structure = try values.required("structure")
            let auto = values.flag("auto")
            let given: UInt16? = try values.value("channel") { (text) throws(ArgumentValueError) -> UInt16 in
                guard let c = UInt16(text), c > 0 else { throw ArgumentValueError("the channel is a number (11-26)") }
                return c
            }
            switch (given, auto) {
            case (nil, false): throw UsageError("name a CHANNEL or give --auto")
            case (.some, true): throw UsageError("a CHANNEL and --auto cannot be combined")
            default: channel = given ?? 0
            }
            delay = try Migrate.delay(values)
            dryRun = values.flag("dry-run")
            wait = values.flag("wait")
            if dryRun, wait { throw UsageError("--dry-run sends nothing, so there is nothing to --wait for") }
        }

        func run(in context: CommandContext) async throws -> ExitCode {
            try await Migrate.run(
                structure, TBRDBusAPI.Structure.setChannel.name, [.uint16(channel), .uint32(delay), .bool(dryRun)],
                doing: "changing the channel of \(structure)", wait: wait, context: context)
        }
    }
}
