import DBus
package import DeviceModel
import MeshCoP
package import OpenThreadBR
package import TBRFoundation

/// One border router: an otbr-agent, on this host's bus for one Thread interface or on another host
/// through its REST API (its ``RouterChannel``), followed as it comes and goes, with its ePSKc session,
/// its observable state and its events. It is the ``BorderRouterBackend`` behind the traits of that
/// router.
///
/// Everything that touches the ePSKc session (activation, deactivation, telemetry polls, the deadline,
/// restarts, restore) runs one at a time through the router's gate, so the state machine sees one input
/// after another and events leave in order. ``run()`` runs the router's long-lived parts as child tasks
/// of the service's task group.
package actor ManagedRouter: BorderRouterBackend {
    package nonisolated let deviceID: DeviceID
    /// The Thread interface of an agent on this host's bus; nil for one reached through REST.
    package nonisolated let interfaceName: ThreadInterfaceName?
    /// How its agent is reached.
    package nonisolated let channel: any RouterChannel
    package let configuration: RouterConfiguration
    package let leaveTimeout: Duration
    package nonisolated let clock: any TBRClock
    package let logger: Logger
    package let sink: any EpskcEventSink
    package let advertisedNames: any AdvertisedNamesSource
    package let serviceEvents: EventBroadcaster<EpskcEvent>
    package let registryEvents: EventBroadcaster<RouterRegistryEvent>

    // MARK: observable state (read without I/O from any thread)
    package nonisolated let summaryCell: AttributeCell<BorderRouterSummary>
    package nonisolated let supportCell = AttributeCell(BorderRouterSupport.unknown)
    package nonisolated let capabilitiesCell = AttributeCell(
        ThreadNetworkCapabilitiesTrait.Attributes(epskcSupported: false, internetAccessOption: .unspecified))
    package nonisolated let networkCell = AttributeCell<ThreadNetworkManagementTrait.NetworkInfo?>(nil)
    package nonisolated let basicCell = AttributeCell(BasicInformationTrait.Attributes.unknown)
    package nonisolated let events = EventBroadcaster<EpskcEvent>()

    // MARK: actor state
    /// The ePSKc session's decisions; the router carries out what it returns (``perform(_:)``).
    package var machine: EpskcSessionMachine
    /// When the machine next wants its timer called (its last timer directive).
    package nonisolated let sessionAlarm: Alarm
    /// An activation the sink could not record (session, why), set by ``publish(_:restoreRecord:)``.
    package var unrecordedActivation: (id: EpskcSessionID, why: String)?
    /// Ends the sink could not record yet (a full disk), in order: journalled, then streamed, as soon as
    /// a write succeeds (``flushPendingEnds()``).
    package var pendingEnds: [EpskcEvent] = []
    /// When ``pendingEnds`` are next tried; no instant while nothing is pending.
    package nonisolated let journalAlarm: Alarm
    /// Failed tries in a row, for the back-off (1 s, doubling, at most 30 s).
    package var journalFailures = 0
    /// The unique bus name of the running agent instance; nil while it is off the bus.
    package var agentInstance: String?
    package let gate = FIFOGate()
    /// Finished when the router is removed (``remove()``).
    package nonisolated let removal = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(0))
    package nonisolated let presenceInbox: AsyncStream<AgentPresence>
    package nonisolated let presenceContinuation: AsyncStream<AgentPresence>.Continuation

    package init(
        id: DeviceID, interfaceName: ThreadInterfaceName?, channel: any RouterChannel, configuration: RouterConfiguration,
        leaveTimeout: Duration, epskcTiming: EpskcSessionMachine.Timing, clock: any TBRClock, logger: Logger, sink: any EpskcEventSink, advertisedNames: any AdvertisedNamesSource,
        serviceEvents: EventBroadcaster<EpskcEvent>, registryEvents: EventBroadcaster<RouterRegistryEvent>
    ) {
        self.deviceID = id
        self.interfaceName = interfaceName
        self.channel = channel
        self.configuration = configuration
        self.leaveTimeout = leaveTimeout
        self.clock = clock
        self.sessionAlarm = Alarm(clock: clock)
        self.journalAlarm = Alarm(clock: clock)
        self.logger = logger
        self.sink = sink
        self.advertisedNames = advertisedNames
        self.serviceEvents = serviceEvents
        self.registryEvents = registryEvents
        self.machine = EpskcSessionMachine(
            deviceID: id,
            timing: epskcTiming)
        self.summaryCell = AttributeCell(
            BorderRouterSummary(
                id: id, interfaceName: interfaceName, transport: channel.transport, address: channel.address, borderAgentID: nil,
                isOnline: false, agentInstance: nil, role: nil))
        // Presence is state: a follower behind a busy gate keeps the newest 16 changes (a new instance
        // appearing ends a session as a vanish would), older ones of a crash-looping agent are dropped.
        (presenceInbox, presenceContinuation) = AsyncStream.makeStream(of: AgentPresence.self, bufferingPolicy: .bufferingNewest(16))
    }

    // MARK: BorderRouterBackend, synchronous part

    package nonisolated var displayName: String { configuration.displayName ?? deviceID.rawValue }
    package nonisolated var isOnline: Bool { summaryCell.value.isOnline }
    package nonisolated var support: BorderRouterSupport { supportCell.value }

    package nonisolated func capabilitiesUpdates<T: Sendable & Equatable>(
        _ transform: @escaping @Sendable (ThreadNetworkCapabilitiesTrait.Attributes) -> T
    ) -> AttributeStream<T> {
        capabilitiesCell.stream(transform)
    }

    package nonisolated func networkInfoUpdates() -> AttributeStream<ThreadNetworkManagementTrait.NetworkInfo?> {
        networkCell.stream()
    }

    package nonisolated func basicInformationUpdates<T: Sendable & Equatable>(
        _ transform: @escaping @Sendable (BasicInformationTrait.Attributes) -> T
    ) -> AttributeStream<T> {
        basicCell.stream(transform)
    }

    package nonisolated func epskcEvents<T: Sendable>(bufferLimit: Int, _ transform: @escaping @Sendable (EpskcEvent) -> T?)
        -> EventStream<T>
    {
        events.subscribe(bufferLimit: bufferLimit, transform)
    }

    // MARK: life cycle

    /// Follows the router until the task is cancelled or the router is removed: its presence, what its
    /// agent tells unasked, the ePSKc session's timer and the journal's retries (each through the gate).
    package func run() async {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask { await self.followPresence(); return false }
            group.addTask { await self.followObservations(); return false }
            group.addTask { await self.sessionAlarm.run { await self.sessionTimerFired() }; return false }
            group.addTask { await self.journalAlarm.run { await self.serialized { await self.flushPendingEnds() } }; return false }
            group.addTask {
                for await _ in self.removal.stream {}
                return true
            }
            while let removed = await group.next() {
                if removed { group.cancelAll() }
            }
        }
    }

    /// Stops the router for good (an admin removed it): its tasks end and its streams finish.
    package nonisolated func remove() {
        removal.continuation.finish()
        finishStreams()
    }

    /// Tells the router that its agent appeared or vanished (from the registry's discovery).
    package nonisolated func presenceChanged(_ presence: AgentPresence) { presenceContinuation.yield(presence) }

    /// Ends every stream of this router (the service stops).
    package nonisolated func finishStreams() {
        presenceContinuation.finish()
        for cell in [summaryCell.finish, supportCell.finish, capabilitiesCell.finish, networkCell.finish, basicCell.finish] {
            cell()
        }
        events.finish()
    }

    private func followPresence() async {
        for await presence in presenceInbox {
            switch presence {
            case .running(let owner): await agentAppeared(owner: owner)
            case .notRunning: await agentVanished()
            }
        }
    }

    // MARK: the gate

    /// Runs `body` when no other gated operation runs on this router, in arrival order.
    /// A caller cancelled while it waits still gets its turn: every input reaches the machine.
    package func serialized<T: Sendable>(_ body: () async -> T) async -> T {
        await gate.withTurnIgnoringCancellation(body)
    }

    // MARK: publishing

    /// Journals `event` with `restoreRecord` (awaiting the sink), then yields it to this router's and the
    /// service's streams. An event the sink could not record is not streamed (journal before signal):
    /// an activation is remembered in ``unrecordedActivation`` for the caller to withdraw; an end is kept
    /// in ``pendingEnds`` and journalled, then streamed, as soon as a write succeeds. Ends waiting are
    /// journalled first, so the journal keeps the order events happened in.
    package func publish(_ event: EpskcEvent, restoreRecord: EpskcSessionRecord?) async {
        var event = event
        await flushPendingEnds()
        do {
            guard pendingEnds.isEmpty else { throw JournalBlocked() }
            event.sequenceNumber = try await sink.journal(event, restoreRecord: restoreRecord)
        } catch {
            switch event {
            case .activated(let e):
                unrecordedActivation = (e.sessionID, "\(error)")
                logger.error("ePSKc start not recorded; the key is withdrawn", [("router", deviceID.rawValue), ("error", "\(error)")])
            case .deactivated(let e):
                pendingEnds.append(event)
                scheduleJournalRetry()
                logger.error(
                    "ePSKc end not recorded yet; it is journalled, then signalled, as soon as a write succeeds",
                    [("router", deviceID.rawValue), ("session", e.sessionID.rawValue), ("error", "\(error)")])
            }
            return
        }
        deliver(event)
    }

    /// Journals the ends waiting for room, in order, streaming each once it is recorded; on the first
    /// failure the rest wait for the next try.
    package func flushPendingEnds() async {
        guard !pendingEnds.isEmpty else { return }
        while var event = pendingEnds.first {
            do {
                event.sequenceNumber = try await sink.journal(event, restoreRecord: nil)
            } catch {
                scheduleJournalRetry()
                return
            }
            pendingEnds.removeFirst()
            logger.notice("a pending ePSKc end is journalled now", [("router", deviceID.rawValue), ("session", event.sessionID.rawValue)])
            deliver(event)
        }
        journalFailures = 0
        journalAlarm.cancel()
    }

    /// The next try of ``pendingEnds``, after a back-off that doubles from 1 s up to 30 s.
    private func scheduleJournalRetry() {
        journalFailures += 1
        let delay = Duration.seconds(min(30, 1 << min(journalFailures - 1, 5)))
        journalAlarm.set(clock.now().advanced(by: delay))
    }

    /// Ends are waiting for room: a later event is not journalled before them.
    private struct JournalBlocked: Error, CustomStringConvertible {
        var description: String { "earlier ePSKc ends are still waiting for room in the journal" }
    }

    /// Logs `event` and yields it to this router's and the service's streams.
    private func deliver(_ event: EpskcEvent) {
        switch event {
        case .activated(let e):
            logger.info(
                "ePSKc session started",
                [("router", deviceID.rawValue), ("session", e.sessionID.rawValue), ("seconds", "\(e.validDurationSeconds)")])
        case .deactivated(let e):
            logger.info(
                "ePSKc session ended",
                [("router", deviceID.rawValue), ("session", e.sessionID.rawValue), ("reason", e.reason.rawValue),
                 ("detail", e.detail?.rawValue ?? "-"), ("detected_by", e.detectedBy.rawValue)])
        }
        let open = machine.session != nil
        summaryCell.update { $0.epskcSessionOpen = open }
        events.publish(event)
        serviceEvents.publish(event)
    }

    /// The wall time now.
    package nonisolated func wallNow() -> WallTime { WallTime(secondsSinceEpoch: clock.wallTime()) }
}
