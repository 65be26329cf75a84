import DBus
import MatterOnboarding
import MeshCoP
import TBRCommandLine
import TBRDBusAPI
import TBRFoundation

extension Matter {
    /// `tbrctl matter commission --structure S [--network XPANID] [--on-network] CODE... [--timeout SECONDS]`:
    /// commissions one or more devices into a structure through tbrd, printing every stage as it happens.
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

                With --json, one JSON object per line: {"payload": N, "stage": "…", "time": "…", "nodeId": …, \
                "error": "…", "failedStage": "…"}, N being the code's position on the command line.

                Exit status: 0 every device was commissioned; 1 any failed; 65 an invalid code (nothing \
                queued) or a network tbrd refused; 69 no tbrd, or tbrd has no Matter commissioner; 75 \
                another session is open in the structure, or --timeout ran out (the session is then \
                cancelled: queued codes are dropped, the one being commissioned finishes in tbrd); 77 not \
                allowed.
                """)
        static let arguments: [ArgumentSpec] = [
            .option("structure", valueName: "STRUCTURE", help: "The structure to commission into.", required: true),
            .option("network", valueName: "XPANID", help: "The Thread network, by extended PAN ID (16 hex digits)."),
            .flag("on-network", help: "The devices are already on the network: hand over no credentials."),
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
            timeout = given ?? Self.defaultTimeout(codes: codes.count)
        }

        func run(in context: CommandContext) async throws -> ExitCode {
            // Every code is checked before anything is sent: an invalid one queues nothing.
            for (i, code) in codes.enumerated() {
                do { _ = try SetupPayload(parsing: code) } catch {
                    throw ControlError.dataError("code \(i + 1) is not a valid onboarding payload: \(error.description); nothing was queued")
                }
            }
            let lines = try await RouterSession.withTbrd(context, for: "'matter commission'") { tbrd in
                try await commission(tbrd, context)
            }
            let failed = lines.filter { $0.stage == "failed" }
            if !context.json {
                let done = lines.filter { $0.stage == "complete" }
                context.write(
                    "\(done.count) of \(codes.count) device\(codes.count == 1 ? "" : "s") commissioned into \(Quoted(structure))"
                        + (done.isEmpty ? "" : ": " + done.map { "node \($0.nodeId.map(String.init) ?? "?") (code \($0.payload))" }.joined(separator: ", ")))
            }
            guard failed.isEmpty else {
                context.note("\(failed.count) of \(codes.count) failed: " + failed.map { "code \($0.payload) at \($0.failedStage ?? "?")" }.joined(separator: ", "))
                return .failure
            }
            return .success
        }

        /// Prepares, queues, follows the stages until every code has ended (or the timeout), completes.
        /// - Returns: the last line of each code, in order.
        private func commission(_ tbrd: TbrdBackend, _ context: CommandContext) async throws -> [CommissioningLine] {
            let path = try await tbrd.structurePath(structure)
            let grant = try await tbrd.prepareMatterCommissioning(at: path, structure: structure)
            let session = grant.session
            let signals: SignalStream
            let owners: AsyncThrowingMapSequence<SignalStream, NameOwnerChange>
            do {
                signals = try await tbrd.commissioningProgress(at: path, session: session)
                owners = try await tbrd.connection.nameOwnerChanges(of: TBRDBusAPI.busName)
            } catch {
                await cancel(tbrd, path, session, context)
                throw ErrorMapping.controlError(error, doing: "following the commissioning")
            }
            let tracker = LineTracker(count: codes.count)
            var queued = 0
            do {
                for (i, code) in codes.enumerated() {
                    let id = try await tbrd.commission(
                        at: path, session: session, code: code, network: network, onNetwork: onNetwork, position: i + 1)
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
            let outcome = try await Deadline.run(after: limit) {
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
                return tracker.finals
            case .finished(false):
                throw ControlError.unavailable("tbrd's commissioning progress ended: the connection to the bus was lost")
            case .timedOut:
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
