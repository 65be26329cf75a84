import TBRDBusAPI
import DBus
import DeviceModel

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

    func watchEpskc(
        router: RouterRef?, since: UInt64?, notes: CommandContext, onEvent: (EpskcWatchEvent) throws -> Bool
    ) async throws {
        let rule = MatchRule(
            sender: TBRDBusAPI.busName, pathNamespace: TBRDBusAPI.routerNamespace, interface: TBRDBusAPI.borderRouter)
        let signals: SignalStream
        let owners: AsyncThrowingMapSequence<SignalStream, NameOwnerChange>
        do {
            signals = try await connection.signals(matching: rule)
            owners = try await connection.nameOwnerChanges(of: TBRDBusAPI.busName)
        } catch {
            throw ErrorMapping.controlError(error, doing: "subscribing to tbrd's ePSKc signals")
        }
        let (inputs, continuation) = AsyncStream.makeStream(of: Input.self)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                do {
                    for try await signal in signals { continuation.yield(.signal(signal)) }
                    continuation.yield(.ended(nil))
                } catch {
                    continuation.yield(.ended(error))
                }
            }
            group.addTask {
                for try await change in owners { continuation.yield(.owner(change.newOwner)) }
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
        }
    }

    /// `EpskcEvents(since, router, 0) → a(tssssxxq)`: journalled events after `since`, in order.
    func journal(after since: UInt64, router: String) async throws -> [EpskcWatchEvent] {
        let reply = try await call(
            manager, "EpskcEvents", [.uint64(since), .string(router), .uint32(0)], doing: "replaying tbrd's ePSKc journal")
        do {
            guard case .array(_, let items)? = reply.first else {
                throw DBusValueError.invalid("EpskcEvents did not return an array")
            }
            return try items.map { (item) throws(DBusValueError) in
                var f = try StructReader(item, fieldCount: 8)
                let sequence: UInt64 = try f.next()
                let router: String = try f.next()
                let kind: String = try f.next()
                let reason: String = try f.next()
                let detail: String = try f.next()
                let activated: Int64 = try f.next()
                let deactivated: Int64 = try f.next()
                let valid: UInt16 = try f.next()
                let ended = kind == "deactivated"
                return EpskcWatchEvent(
                    event: ended ? .epskcModeDeactivated : .epskcModeActivated, sequence: sequence, router: router,
                    reason: ended ? reason : nil, detail: ended ? detail.nilIfEmpty : nil,
                    activatedAt: WallTime(milliseconds: activated),
                    deactivatedAt: ended ? WallTime(milliseconds: deactivated) : nil, validSeconds: Int(valid))
            }.sorted { $0.sequence < $1.sequence }
        } catch {
            throw ErrorMapping.controlError(error, doing: "replaying tbrd's ePSKc journal")
        }
    }

    /// The event a `BorderRouter1` signal carries, or nil for another signal or an unexpected shape.
    static func event(from signal: Signal) -> EpskcWatchEvent? {
        let a = signal.arguments
        switch signal.member {
        case TBRDBusAPI.epskcActivated:
            guard a.count == 4, case .uint64(let sequence) = a[0], case .string(let router) = a[1],
                case .uint16(let valid) = a[2], case .int64(let activated) = a[3]
            else { return nil }
            return EpskcWatchEvent(
                event: .epskcModeActivated, sequence: sequence, router: router,
                activatedAt: WallTime(milliseconds: activated), validSeconds: Int(valid))
        case TBRDBusAPI.epskcDeactivated:
            guard a.count == 6, case .uint64(let sequence) = a[0], case .string(let router) = a[1],
                case .string(let reason) = a[2], case .string(let detail) = a[3], case .int64(let activated) = a[4],
                case .int64(let deactivated) = a[5]
            else { return nil }
            return EpskcWatchEvent(
                event: .epskcModeDeactivated, sequence: sequence, router: router, reason: reason,
                detail: detail.nilIfEmpty, activatedAt: WallTime(milliseconds: activated),
                deactivatedAt: WallTime(milliseconds: deactivated))
        default:
            return nil
        }
    }
}
