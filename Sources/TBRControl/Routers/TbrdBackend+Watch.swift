import BorderRouterService
import TBRDocuments
import TBRFoundation
import TBRDBusAPI
import DBus

/// `epskc watch` through tbrd, as docs/dbus-api.md says a watcher misses nothing: subscribe to every
/// router's signals first, then replay the journal (`Manager1.EpskcEvents`), then print live signals
/// whose sequence is above the last one printed. If tbrd restarts meanwhile, the journal is replayed
/// again from the last sequence printed once it is back.
extension TbrdBackend {
    private enum Input: Sendable {
        case signal(Signal)
        case owner(String?)
        case ended((any Error)?)
    }

    /// Signals an `epskc watch` holds for a slow reader before it stops.
    static var watchBacklog: Int { 1024 }

    func watchEpskc(
        router: RouterRef?, since: UInt64?, notes: CommandContext, onEvent: (EpskcWatchEvent) throws -> Bool
    ) async throws {
        // Events carry tbrd's router id: a name from the command line is looked up first.
        var router = router
        if let named = router, !named.isVerified { router = try await lookUp(named.id) }
        let rule = MatchRule(
            sender: TBRDBusAPI.busName, pathNamespace: TBRDBusAPI.routerNamespace, interface: API.interface)
        let signals: SignalStream
        let owners: AsyncThrowingMapSequence<SignalStream, NameOwnerChange>
        do {
            signals = try await connection.signals(matching: rule)
            owners = try await connection.nameOwnerChanges(of: TBRDBusAPI.busName)
        } catch {
            throw ErrorMapping.controlError(error, doing: "subscribing to tbrd's ePSKc signals")
        }
        // Signals that come while the journal is replayed, or while the output is slow to take them, wait
        // here; past `watchBacklog` the watch ends and says from where to go on.
        let inbox = Inbox<Input>(capacity: Self.watchBacklog)
        let inputs = inbox.stream
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                do {
                    for try await signal in signals { inbox.post(.signal(signal)) }
                    inbox.post(.ended(nil))
                } catch {
                    inbox.post(.ended(error))
                }
            }
            group.addTask {
                for try await change in owners { inbox.post(.owner(change.newOwner)) }
            }
            defer { group.cancelAll() }

            // Everything journalled after `since` (or, without it, the journal's head: only later
            // events are printed).
            let filter = router?.id ?? ""
            var last: UInt64
            if let since {
                last = since
                for event in try await journal(after: since, router: filter) where event.sequence > last {
                    last = event.sequence
                    guard try onEvent(event) else { return }
                }
            } else {
                last = try await journal(after: 0, router: filter).map(\.sequence).max() ?? 0
            }
            notes.note("watching the ePSKc events of \(router.map { $0.id } ?? "every router") through tbrd, after #\(last)")

            var waitingForTbrd = false
            for await input in inputs {
                switch input {
                case .signal(let signal):
                    guard let event = Self.event(from: signal), filter.isEmpty || event.router == filter,
                        event.sequence > last
                    else { continue }
                    last = event.sequence
                    guard try onEvent(event) else { return }
                case .owner(nil):
                    if !waitingForTbrd { notes.note("tbrd left the bus; waiting for it to come back") }
                    waitingForTbrd = true
                case .owner(.some):
                    guard waitingForTbrd else { continue }
                    waitingForTbrd = false
                    notes.note("tbrd is back; catching up from its journal after #\(last)")
                    for event in try await journal(after: last, router: filter) where event.sequence > last {
                        last = event.sequence
                        guard try onEvent(event) else { return }
                    }
                case .ended(let error):
                    throw ControlError.unavailable(
                        "lost tbrd's ePSKc signals: \(error.map { "\($0)" } ?? "the connection to the bus closed")")
                }
            }
            // Only a full inbox ends the inputs.
            throw ControlError.unavailable(
                "fell more than \(Self.watchBacklog) signals behind tbrd; go on with 'tbrctl epskc watch --since \(last)'")
        }
    }

    /// `EpskcEvents(since, router, 0) → a(tssssxxq)`: journalled events after `since`, in order.
    func journal(after since: UInt64, router: String) async throws -> [EpskcWatchEvent] {
        let reply = try await call(
            manager, TBRDBusAPI.Manager.epskcEvents.name, [.uint64(since), .string(router), .uint32(0)],
            doing: "replaying tbrd's ePSKc journal")
        let rows: [EpskcJournalRow]
        do { rows = try Self.decode(reply, as: [EpskcJournalRow].self) } catch {
            throw ErrorMapping.controlError(error, doing: "replaying tbrd's ePSKc journal")
        }
        return rows.map { row in
            let ended = row.kind == "deactivated"
            return EpskcWatchEvent(
                event: ended ? .epskcModeDeactivated : .epskcModeActivated, sequence: row.sequence, router: row.router,
                reason: ended ? row.reason : nil, detail: ended ? row.detail.nilIfEmpty : nil,
                activatedAt: WallTime(milliseconds: row.activatedAt),
                deactivatedAt: ended ? WallTime(milliseconds: row.deactivatedAt) : nil, validSeconds: Int(row.validSeconds))
        }.sorted { $0.sequence < $1.sequence }
    }

    /// The event a `BorderRouter1` signal carries, or nil for another signal or an unexpected shape.
    static func event(from signal: Signal) -> EpskcWatchEvent? {
        switch signal.member {
        case API.epskcModeActivated.name:
            guard let e = try? EpskcActivatedSignal(arguments: signal.arguments) else { return nil }
            return EpskcWatchEvent(
                event: .epskcModeActivated, sequence: e.sequence, router: e.router,
                activatedAt: WallTime(milliseconds: e.activatedAt), validSeconds: Int(e.validSeconds))
        case API.epskcModeDeactivated.name:
            guard let e = try? EpskcDeactivatedSignal(arguments: signal.arguments) else { return nil }
            return EpskcWatchEvent(
                event: .epskcModeDeactivated, sequence: e.sequence, router: e.router, reason: e.reason,
                detail: e.detail.nilIfEmpty, activatedAt: WallTime(milliseconds: e.activatedAt),
                deactivatedAt: WallTime(milliseconds: e.deactivatedAt))
        default:
            return nil
        }
    }
}
