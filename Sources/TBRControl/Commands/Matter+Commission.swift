import DBus
import MatterOnboarding
import MeshCoP
import TBRCommandLine
import TBRDBusAPI
import TBRFoundation
import TBRLifecycle

extension Matter {
    /// `tbrctl matter commission --structure S [--network XPANID] [--on-network] [--name NAME] [--room ROOM]
    /// CODE... [--timeout SECONDS]`: commissions one or more devices into a structure through tbrd,
    /// printing every stage as it happens.
    struct Commission: ControlCommand {
        static let configuration = CommandConfiguration(
            name: "commission",
            abstract: "Commission Matter devices into a structure, printing every stage as it happens.",
            discussion: """
                Checks every CODE (QR code MT:… or manual pairing code) first: one that is not valid exits 65 \
                and nothing is queued. Then opens a commissioning session in the structure, queues the codes \
                in order (tbrd commissions one at a time), prints each stage of each code as tbrd reaches \
                it — queued, validated, networkSelected, credentialsHandedOver, commissioning, nodeAdded, \
                interviewed, complete, or failed with the stage that failed — and completes the session. \
                The codes are never printed.

                The Thread network is --network, else the structure's default network, else the only \
                network of its border routers. --on-network is for devices already on the network (no \
                credentials are handed over).

                --name (one CODE only) names the node: tbrd records the name and writes it to the device's \
                Basic Information NodeLabel (at most 32 bytes); a device that refuses the label keeps the \
                recorded name, and its complete line says so. --room places the node in a room of the \
                structure ('tbrctl structure room add'); a room the structure lacks exits 65 before anything \
                is queued.

                With --json, one JSON object per line: {"payload": N, "stage": "…", "time": "…", "nodeId": …, \
                "error": "…", "failedStage": "…", "name": "…", "room": "…", "warning": "…"}, N being the \
                code's position on the command line; name, room and warning are null unless the complete \
                stage has them.

                A commissioning whose outcome tbrd could not learn (its commissioner did not answer in time, \
                or the connection to it was lost) fails saying "outcome unknown": the device may still be \
                added; 'tbrctl matter nodes --unclaimed' then lists it, for 'tbrctl matter adopt'.

                Ctrl-C (SIGINT) or SIGTERM cancels the session: queued codes are dropped, the one being \
                commissioned finishes in tbrd; tbrctl says what was done and exits 130 (SIGINT) or 143 \
                (SIGTERM). If tbrctl is killed or leaves the bus otherwise, tbrd cancels the session itself.

                Exit status: 0 every device was commissioned; 1 any failed; 64 --name with several codes; \
                65 an invalid code or name (nothing queued), a room the structure lacks, or a network tbrd \
                refused; 69 no tbrd, or tbrd has no Matter commissioner; 75 another session is open in the \
                structure, or --timeout ran out (the session is then cancelled: queued codes are dropped, \
                the one being commissioned finishes in tbrd); 77 not allowed; 130 or 143 interrupted (the \
                session was cancelled).
                """)
        static let arguments: [ArgumentSpec] = [
            .option("structure", valueName: "STRUCTURE", help: "The structure to commission into.", required: true),
            .option("network", valueName: "XPANID", help: "The Thread network, by extended PAN ID (16 hex digits)."),
            .flag("on-network", help: "The devices are already on the network: hand over no credentials."),
            .option("name", valueName: "NAME", help: "Name the node (one CODE only; at most 32 bytes; written to its NodeLabel)."),
            .option("room", valueName: "ROOM", help: "Place the node(s) in this room of the structure."),
            .option(
                "timeout", valueName: "SECONDS",
                help: "Give up after SECONDS (default 300 per code, at least 600), cancel the session and exit 75."),
            .positional("codes", valueName: "CODE", help: "QR codes (MT:…) or manual pairing codes, one per device.", repeatable: true),
        ]

        /// The default bound: tbrd gives each device up to 300 s (`matter-commission-timeout`), so a
        /// batch gets 300 s per code, and never less than 600 s.
        static func defaultTimeout(codes: Int) -> Double { max(600, 300 * Double(codes)) }

        let structure: String
        let network: String?
        let onNetwork: Bool
        let name: String?
        let room: String?
        let timeout: Double
        let codes: [String]

        init(_ values: ParsedValues) throws(UsageError) {
            structure = try values.required("structure")
            network = try values.value("network") { (word) throws(ArgumentValueError) -> String in
                guard word.count == 16, let xpan = ExtendedPANID(word) else {
                    throw ArgumentValueError("an extended PAN ID is 16 hex digits, such as 1111111122222222")
                }
                return xpan.description
            }
            onNetwork = values.flag("on-network")
            let given = try values.value("timeout") { (word) throws(ArgumentValueError) -> Double in
                guard let s = Double(word), s > 0, s <= 86_400 else {
                    throw ArgumentValueError("a timeout is a number of seconds above 0, such as 600 or 0.5")
                }
                return s
            }
            codes = values.strings("codes")
            if codes.isEmpty { throw UsageError("give at least one CODE (a QR code MT:… or a manual pairing code)") }
            name = values.string("name")
            room = values.string("room")
            if name != nil, codes.count > 1 { throw UsageError("--name names one node: give it with one CODE only") }
            timeout = given ?? Self.defaultTimeout(codes: codes.count)
        }

        func run(in context: CommandContext) async throws -> ExitCode {
            // Every code and the name are checked before anything is sent: an invalid one queues nothing.
            for (i, code) in codes.enumerated() {
                do { _ = try SetupPayload(parsing: code) } catch {
                    throw ControlError.dataError("code \(i + 1) is not a valid onboarding payload: \(error.description); nothing was queued")
                }
            }
            if let name, let problem = NameRules.problem(with: name, maximumBytes: TBRDBusAPI.Structure.maximumNodeNameBytes) {
                throw ControlError.dataError("\(Quoted(name)) cannot name a Matter node: \(problem); nothing was queued")
            }
            // Ctrl-C and SIGTERM cancel the session rather than leave it to tbrd.
            let signals = await ProcessSignalSource().trap([.sigint, .sigterm])
            defer { signals.cancel() }
            let progress = CommissionProgress(count: codes.count)
            let outcome = try await RouterSession.withTbrd(context, for: "'matter commission'") { tbrd in
                try await withThrowingTaskGroup(of: Interruptible.self) { group in
                    group.addTask { .finished(try await commission(tbrd, context, progress)) }
                    group.addTask {
                        for await signal in signals { return .interrupted(signal) }
                        return .interrupted(nil)
                    }
                    defer { group.cancelAll() }
                    let first = try await group.next() ?? .interrupted(nil)
                    if case .interrupted = first { group.cancelAll() }
                    if case .interrupted(let signal?) = first {
                        if let (path, session) = progress.session { await cancel(tbrd, path, session, context) }
                        return Interruptible.interrupted(signal)
                    }
                    return first
                }
            }
            switch outcome {
            case .finished(let lines): return report(lines, context)
            case .interrupted(let signal):
                let done = progress.tracker.finals.filter { $0.stage == .complete }
                context.note(
                    "interrupted (\(signal.map(\.description) ?? "signal")): "
                        + (!progress.wasOpened
                            ? "no session was opened, nothing was queued"
                            : "the session was cancelled: \(done.count) of \(codes.count) commissioned"
                                + (done.isEmpty ? "" : " (" + done.map { "node \($0.nodeId.map(String.init) ?? "?")" }.joined(separator: ", ") + ")")
                                + "; queued codes are dropped, one being commissioned finishes in tbrd (see 'tbrctl matter nodes')"))
                return signal == .sigterm ? ExitCode(143) : ExitCode(130)
            }
        }

        /// A commissioning that ran to its end, or a signal that cut it short.
        private enum Interruptible: Sendable {
            case finished([CommissioningLine])
            case interrupted(UnixSignal?)
        }

        /// The summary and the exit status of a batch that ran to its end.
        private func report(_ lines: [CommissioningLine], _ context: CommandContext) -> ExitCode {
            let failed = lines.filter { $0.stage == .failed }
            if !context.json {
                let done = lines.filter { $0.stage == .complete }
                context.write(
                    "\(done.count) of \(codes.count) device\(codes.count == 1 ? "" : "s") commissioned into \(Quoted(structure))"
                        + (done.isEmpty ? "" : ": " + done.map { "node \($0.nodeId.map(String.init) ?? "?") (code \($0.payload))" }.joined(separator: ", ")))
            }
            guard failed.isEmpty else {
                context.note("\(failed.count) of \(codes.count) failed: " + failed.map { "code \($0.payload) at \($0.failedStage?.rawValue ?? "?")" }.joined(separator: ", "))
                return .failure
            }
            return .success
        }

        /// Prepares, queues, follows the stages until every code has ended (or the timeout), completes.
        /// - Returns: the last line of each code, in order.
        private func commission(_ tbrd: TbrdBackend, _ context: CommandContext, _ progress: CommissionProgress) async throws -> [CommissioningLine] {
            let path = try await tbrd.structurePath(structure)
            if let room {
                let rooms = try await tbrd.rooms(at: path, structure: structure)
                guard rooms.contains(NameRules.canonical(room)) else {
                    throw ControlError.dataError(
                        "structure \(Quoted(structure)) has no room \(Quoted(room))"
                            + (rooms.isEmpty ? " (it has none: 'tbrctl structure room add')" : " (its rooms: \(rooms.map { Quoted($0).description }.joined(separator: ", ")))")
                            + "; nothing was queued")
                }
            }
            let grant = try await tbrd.prepareMatterCommissioning(at: path, structure: structure)
            let session = grant.session
            progress.opened(path, session)
            let signals: SignalStream
            let owners: AsyncThrowingMapSequence<SignalStream, NameOwnerChange>
            do {
                signals = try await tbrd.commissioningProgress(at: path, session: session)
                owners = try await tbrd.connection.nameOwnerChanges(of: TBRDBusAPI.busName)
            } catch {
                await cancel(tbrd, path, session, context)
                throw ErrorMapping.controlError(error, doing: "following the commissioning")
            }
            let tracker = progress.tracker
            var queued = 0
            do {
                for (i, code) in codes.enumerated() {
                    let id = try await tbrd.commission(
                        at: path, session: session, code: code, network: network, onNetwork: onNetwork, name: name, room: room, position: i + 1)
                    tracker.map(id, to: i + 1)
                    queued += 1
                }
            } catch {
                await cancel(tbrd, path, session, context)
                if let control = error as? ControlError, control.exitCode == .dataError {
                    throw ControlError.dataError(
                        control.message
                            + (queued == 0
                                ? "; nothing was queued (the session was cancelled)"
                                : "; the session was cancelled: the codes before it that had not started were dropped, "
                                    + "one already being commissioned finishes in tbrd (see 'tbrctl matter nodes')"))
                }
                throw error
            }
            let limit = Duration.milliseconds(Int64(timeout * 1000))
            let outcome = try await TimeLimit.run(limit, clock: context.clock) {
                try await withThrowingTaskGroup(of: Bool.self) { group in
                    group.addTask {
                        for try await signal in signals {
                            let s: CommissioningProgressSignal
                            do { s = try CommissioningProgressSignal(arguments: signal.arguments) } catch {
                                context.note("ignored a CommissioningProgress signal of another shape: \(error)")
                                continue
                            }
                            guard s.session == session else { continue }
                            for line in tracker.take(s) {
                                if context.json { try context.writeJSONLine(line) } else { context.write(line.render()) }
                            }
                            if tracker.allFinal { return true }
                        }
                        return false
                    }
                    group.addTask {
                        for try await change in owners where change.newOwner == nil {
                            throw ControlError.unavailable("tbrd left the bus while it commissioned; its session is gone")
                        }
                        return false
                    }
                    defer { group.cancelAll() }
                    return try await group.next() ?? false
                }
            }
            switch outcome {
            case .finished(true):
                _ = try await tbrd.completeMatterCommissioning(at: path, session: session)
                progress.closed()
                return tracker.finals
            case .finished(false):
                throw ControlError.unavailable("tbrd's commissioning progress ended: the connection to the bus was lost")
            case .timedOut:
                progress.closed()
                await cancel(tbrd, path, session, context)
                throw ControlError.temporaryFailure(
                    "not every device was commissioned within \(Self.seconds(timeout)) s (--timeout); the session was cancelled: "
                        + "queued codes are dropped, the one being commissioned finishes in tbrd (see 'tbrctl matter nodes')")
            }
        }

        private func cancel(_ tbrd: TbrdBackend, _ path: ObjectPath, _ session: String, _ context: CommandContext) async {
            do { try await tbrd.cancelMatterCommissioning(at: path, session: session) } catch {
                context.note("the session could not be cancelled (it ends by itself when it expires): \(error)")
            }
        }

        private static func seconds(_ value: Double) -> String {
            value == value.rounded() ? String(Int(value)) : String(value)
        }
    }
}

/// What a running `matter commission` has done so far, for the signal handler: the session it opened
/// (nil before, and once completed or cancelled) and the lines of each code.
final class CommissionProgress: Sendable {
    let tracker: LineTracker
    private let state = Locked<(wasOpened: Bool, open: (path: ObjectPath, session: String)?)>((false, nil))

    init(count: Int) { tracker = LineTracker(count: count) }

    /// The session to cancel if interrupted.
    var session: (path: ObjectPath, session: String)? { state.withLock { $0.open } }

    /// Whether a session was opened at all.
    var wasOpened: Bool { state.withLock { $0.wasOpened } }

    func opened(_ path: ObjectPath, _ session: String) { state.withLock { $0 = (true, (path, session)) } }

    /// The session was completed or cancelled: an interruption from now on has nothing to cancel.
    func closed() { state.withLock { $0.open = nil } }
}
