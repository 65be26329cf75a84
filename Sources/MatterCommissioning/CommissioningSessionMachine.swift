package import DeviceModel
import MatterCommissioner
package import MatterOnboarding
import MeshCoP
import TBRFoundation

/// Matter commissioning sessions as a sans-IO state machine (ARCHITECTURE "Matter Thread commissioning
/// path"), shaped like ``EpskcSessionMachine`` and ``PolicyReconcilerMachine``.
///
/// Its `mutating` handlers take one input (a call, a result, the timer) with the current instant and
/// wall time, and return the ``CommissioningDirective``s to carry out. Every decision is here:
/// - **Sessions**: at most one per structure, open until completed, cancelled or expired; opening one
///   needs a border router of the structure online and attached to a network.
/// - **The queue**: payloads are parsed and checked before they are queued (an invalid one is refused
///   and nothing is queued); they run one at a time across every session, in the order they were
///   queued (the commissioner has one Thread dataset at a time).
/// - **The network**: the option's, else the structure's default, else the only network among its
///   routers; an unknown or ambiguous one is refused naming the candidates. Its active dataset is read
///   when the payload's turn comes, from an online router of that network.
/// - **Stages**: `queued`, `validated`, `networkSelected`, `credentialsHandedOver`, `commissioning`
///   (tbrd's), `nodeAdded`, `interviewed` (the commissioner's), `complete` once the node is recorded,
///   or `failed` naming the stage that failed.
/// - **Ending**: completing waits for every payload; cancelling or expiring (only an idle session
///   expires: one with payloads queued or in flight expires once they have ended) fails the queued ones
///   (`failed` at `queued`) and lets the one in flight finish (the commissioner cannot stop it); its
///   node, if any, is recorded.
package struct CommissioningSessionMachine: Sendable {
    package typealias Instant = ContinuousClock.Instant

    /// How long a session lives.
    package let sessionLifetime: Duration
    /// The commissioner's name, recorded with each node.
    package let backend: String

    private(set) var sessions: [CommissioningSessionID: Session] = [:]
    /// The payload being commissioned now.
    private(set) var inFlight: PayloadRef?
    private var nextOrder: UInt64 = 0

    package init(sessionLifetime: Duration, backend: String) {
        self.sessionLifetime = sessionLifetime
        self.backend = backend
    }

    /// The session open in `structure`, if any.
    package func session(in structure: StructureID) -> Session? { sessions.values.first { $0.structure == structure } }

    // MARK: calls

    /// Opens a session in the structure `view` describes.
    /// - Throws: ``DeviceModel/HomeError``: `busy` when the structure has a session; `unavailable` when
    ///   none of its routers is online; `invalidState` when none online is attached to a network.
    package mutating func prepare(_ view: CommissioningStructureView, id: CommissioningSessionID, now: Instant, wall: WallTime)
        throws(HomeError) -> (CommissioningGrant, [CommissioningDirective])
    {
        if let open = session(in: view.structure) {
            throw HomeError(.busy, "a commissioning session (\(open.id)) is already open in structure \(Self.quoted(view.name)); complete or cancel it first")
        }
        let online = view.routers.filter(\.isOnline)
        guard !online.isEmpty else {
            throw HomeError(
                .unavailable,
                view.routers.isEmpty
                    ? "structure \(Self.quoted(view.name)) has no border router; add one with AddBorderRouter"
                    : "no border router of structure \(Self.quoted(view.name)) is online (its otbr-agents are not running)")
        }
        guard online.contains(where: { $0.isAttached && $0.network != nil }) else {
            throw HomeError(
                .invalidState, "no online border router of structure \(Self.quoted(view.name)) is attached to a Thread network with an active dataset")
        }
        let expiresAt = now.advanced(by: sessionLifetime)
        sessions[id] = Session(id: id, structure: view.structure, structureName: view.name, expiresAt: expiresAt, state: .open)
        return (CommissioningGrant(session: id, expiresAt: wall.advanced(by: sessionLifetime)), [schedule()])
    }

    /// Parses and checks `text`, chooses its network, and queues it.
    /// - Returns: the payload's id and the directives (`queued`, and its start if nothing runs).
    /// - Throws: ``DeviceModel/HomeError``: `notFound` for a session that is not open in this structure;
    ///   `invalidState` once it is completing or ending; `invalidArgument` for a payload that does not
    ///   parse or breaks a rule, or a network that is unknown or ambiguous (naming the candidates).
    package mutating func commission(
        _ id: CommissioningSessionID, in view: CommissioningStructureView, text: String, options: CommissioningOptions, now: Instant,
        wall: WallTime
    ) throws(HomeError) -> (String, [CommissioningDirective]) {
        guard var session = sessions[id], session.structure == view.structure else { throw Self.noSession(id, view.name) }
        guard session.state == .open else {
            throw HomeError(.invalidState, "commissioning session \(id) takes no more payloads: it is \(Self.words(session.state))")
        }
        let payload: SetupPayload
        do { payload = try SetupPayload(parsing: text) } catch {
            throw HomeError(.invalidArgument, "the onboarding payload is not valid: \(error.description)")
        }
        if let problem = Self.problem(with: payload, options: options) { throw HomeError(.invalidArgument, problem) }
        if let problem = Self.problem(withNaming: options, in: view) { throw HomeError(.invalidArgument, problem) }
        let network = try Self.chooseNetwork(options.network, in: view)
        let payloadID = String(session.payloads.count + 1)
        nextOrder += 1
        session.payloads.append(
            Payload(
                id: payloadID, payload: payload, code: CommissioningRequest.code(from: text), options: options, network: network,
                order: nextOrder, stage: .queued))
        sessions[id] = session
        let ref = PayloadRef(session: id, payloadID: payloadID)
        return (payloadID, [publish(ref, .queued, wall)] + startNext(now: now, wall: wall))
    }

    /// `complete`: when every payload has finished, answers `waiter` with the outcomes and ends the
    /// session; otherwise stops taking payloads and answers once they have.
    /// - Throws: ``DeviceModel/HomeError`` `notFound` for a session that is not open in this structure.
    package mutating func complete(_ id: CommissioningSessionID, in structure: StructureID, structureName: String, waiter: CompletionWaiter)
        throws(HomeError) -> [CommissioningDirective]
    {
        guard var session = sessions[id], session.structure == structure else { throw Self.noSession(id, structureName) }
        session.waiters.append(waiter)
        if session.state == .open { session.state = .completing }
        sessions[id] = session
        return settle(id, reason: "completed") + [schedule()]
    }

    /// A `complete` call went away (its caller cancelled it) before it was answered.
    package mutating func waiterGone(_ waiter: CompletionWaiter) {
        for id in sessions.keys { sessions[id]?.waiters.removeAll { $0 == waiter } }
    }

    /// `cancel`: the queued payloads fail at `queued`; the one in flight finishes; then the session ends.
    /// Cancelling a session that is already ending changes nothing.
    /// - Throws: ``DeviceModel/HomeError`` `notFound` for a session that is not open in this structure.
    package mutating func cancel(_ id: CommissioningSessionID, in structure: StructureID, structureName: String, now: Instant, wall: WallTime)
        throws(HomeError) -> [CommissioningDirective]
    {
        guard let session = sessions[id], session.structure == structure else { throw Self.noSession(id, structureName) }
        if case .ending = session.state { return [schedule()] }
        return end(id, reason: "cancelled", error: "the session was cancelled before its turn", wall: wall) + [schedule()]
    }

    /// The timer: idle sessions past their expiry end like a cancel. A session with payloads queued or
    /// being commissioned is not abandoned: it expires once they have all ended (a long batch is never
    /// cut short by the expiry).
    package mutating func timerFired(now: Instant, wall: WallTime) -> [CommissioningDirective] {
        var directives: [CommissioningDirective] = []
        for id in sessions.keys.sorted() {
            guard let session = sessions[id], session.expiresAt <= now, session.isSettled else { continue }
            if case .ending = session.state { continue }
            directives += end(id, reason: "expired", error: "the session expired before its turn", wall: wall)
        }
        return directives + [schedule()]
    }

    /// Payload `ref` is complete (with `warning`, when its name did not reach the device): the session
    /// settles and the next payload starts.
    package mutating func completed(_ ref: PayloadRef, warning: String?, now: Instant, wall: WallTime) -> [CommissioningDirective] {
        update(ref) {
            $0.stage = .complete
            $0.outcome = CommissioningOutcome(payloadID: ref.payloadID, nodeID: $0.nodeID)
        }
        inFlight = nil
        return [publish(ref, .complete, wall, warning: warning)] + settle(ref.session, reason: nil) + startNext(now: now, wall: wall) + [schedule()]
    }

    // MARK: the queue

    /// Starts the earliest queued payload of any session when none is in flight: checks it (`validated`),
    /// then reads its network's dataset, or commissions at once when the device is on the network.
    private mutating func startNext(now: Instant, wall: WallTime) -> [CommissioningDirective] {
        var directives: [CommissioningDirective] = []
        while inFlight == nil {
            let queued = sessions.values.flatMap { s in s.payloads.filter { $0.outcome == nil && $0.stage == .queued }.map { (s, $0) } }
            guard let (session, next) = queued.min(by: { $0.1.order < $1.1.order }) else { break }
            let ref = PayloadRef(session: session.id, payloadID: next.id)
            inFlight = ref
            if let problem = Self.problem(with: next.payload, options: next.options) {
                directives += fail(ref, at: .validated, problem, now: now, wall: wall, startingNext: false)
                continue
            }
            update(ref) { $0.stage = .validated }
            directives.append(publish(ref, .validated, wall))
            if next.options.onNetwork {
                update(ref) { $0.stage = .networkSelected }
                directives.append(publish(ref, .networkSelected, wall))
                directives += startCommissioning(ref, wall: wall)
            } else {
                directives.append(.readDataset(ref, network: next.network, structure: session.structure))
            }
        }
        return directives
    }

    /// Publishes `commissioning` and hands the payload to the commissioner (the code leaves the machine).
    package mutating func startCommissioning(_ ref: PayloadRef, wall: WallTime) -> [CommissioningDirective] {
        guard let payload = payload(ref), let code = payload.code else { return [] }
        update(ref) {
            $0.stage = .commissioning
            $0.code = nil
        }
        let request = CommissioningRequest(payload: payload.payload, code: code, onNetwork: payload.options.onNetwork, reference: ref.description)
        return [publish(ref, .commissioning, wall), .commission(ref, request)]
    }

    /// The payload fails at `stage`; the session settles and the next payload starts.
    package mutating func fail(
        _ ref: PayloadRef, at stage: CommissioningStage, _ error: String, now: Instant, wall: WallTime, startingNext: Bool = true
    ) -> [CommissioningDirective] {
        update(ref) {
            $0.outcome = CommissioningOutcome(payloadID: ref.payloadID, error: error, failedStage: stage)
            $0.code = nil
        }
        if inFlight == ref { inFlight = nil }
        var directives = [publish(ref, .failed, wall, error: error, failedStage: stage)] + settle(ref.session, reason: nil)
        if startingNext { directives += startNext(now: now, wall: wall) }
        return directives + [schedule()]
    }

    /// Ends session `id`: its queued payloads fail at `queued` with `error`; it settles once the payload
    /// in flight (if any) finishes.
    private mutating func end(_ id: CommissioningSessionID, reason: String, error: String, wall: WallTime) -> [CommissioningDirective] {
        guard var session = sessions[id] else { return [] }
        session.state = .ending(reason: reason)
        sessions[id] = session
        var directives: [CommissioningDirective] = []
        for payload in session.payloads where payload.outcome == nil && inFlight != PayloadRef(session: id, payloadID: payload.id) {
            let ref = PayloadRef(session: id, payloadID: payload.id)
            update(ref) {
                $0.outcome = CommissioningOutcome(payloadID: payload.id, error: error, failedStage: .queued)
                $0.code = nil
            }
            directives.append(publish(ref, .failed, wall, error: error, failedStage: .queued))
        }
        return directives + settle(id, reason: reason)
    }

    /// Ends session `id` once every payload has finished and it is completing or ending: answers its
    /// waiters with the outcomes.
    private mutating func settle(_ id: CommissioningSessionID, reason: String?) -> [CommissioningDirective] {
        guard let session = sessions[id], session.isSettled else { return [] }
        let why: String
        switch session.state {
        case .open: return []
        case .completing: why = reason ?? "completed"
        case .ending(let r): why = r
        }
        sessions[id] = nil
        return session.waiters.map { .answer($0, session.outcomes) } + [.sessionEnded(id, session.structure, reason: why)]
    }

    /// The timer directive: the earliest expiry of an idle session not yet ending (overdue ones at once),
    /// or none.
    private func schedule() -> CommissioningDirective {
        let due = sessions.values.filter { session in
            if case .ending = session.state { return false }
            return session.isSettled
        }.map(\.expiresAt).min()
        return due.map { .wake(at: $0) } ?? .cancelWake
    }

    // MARK: helpers (shared with CommissioningSessionMachine+Results.swift)

    /// Payload `ref`, if its session still holds it.
    package func payload(_ ref: PayloadRef) -> Payload? { sessions[ref.session]?.payloads.first { $0.id == ref.payloadID } }

    /// Changes payload `ref` in place (nothing when it is gone).
    package mutating func update(_ ref: PayloadRef, _ change: (inout Payload) -> Void) {
        guard var session = sessions[ref.session], let i = session.payloads.firstIndex(where: { $0.id == ref.payloadID }) else { return }
        change(&session.payloads[i])
        sessions[ref.session] = session
    }

    /// The progress event of payload `ref` reaching `stage`.
    package func publish(
        _ ref: PayloadRef, _ stage: CommissioningStage, _ wall: WallTime, error: String? = nil, failedStage: CommissioningStage? = nil,
        warning: String? = nil
    ) -> CommissioningDirective {
        let session = sessions[ref.session]
        let p = payload(ref)
        let knowsNetwork = (p?.stage.order ?? 0) >= CommissioningStage.networkSelected.order && stage != .queued && stage != .validated
        let isComplete = stage == .complete
        return .publish(
            CommissioningProgress(
                session: ref.session, structure: session?.structure ?? StructureID(""), payloadID: ref.payloadID, stage: stage, time: wall,
                nodeID: p?.nodeID, vendorID: p?.vendorID, productID: p?.productID, extPanID: knowsNetwork ? p?.network : nil, error: error,
                failedStage: failedStage, name: isComplete ? p?.options.name.map(NameRules.canonical) : nil,
                room: isComplete ? p?.options.room.map(NameRules.canonical) : nil, warning: warning))
    }

    package static func noSession(_ id: CommissioningSessionID, _ structureName: String) -> HomeError {
        HomeError(
            .notFound,
            "there is no commissioning session \(Self.quoted(id.rawValue)) in structure \(Self.quoted(structureName)) (it may have completed, been cancelled or expired)")
    }

    package static func words(_ state: SessionState) -> String {
        switch state {
        case .open: "open"
        case .completing: "completing"
        case .ending(let reason): reason == "expired" ? "expired" : "cancelled"
        }
    }

    package static func quoted(_ text: String) -> String { "\"\(text)\"" }
}
