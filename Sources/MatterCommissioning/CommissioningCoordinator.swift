package import DeviceModel
package import MatterCommissioner
package import MatterOnboarding
package import MeshCoP
package import TBRFoundation

/// Drives ``CommissioningSessionMachine``: takes the calls (prepare, commission, complete, cancel),
/// feeds the machine what happens (results of the commissioner and of the routers, the clock) and
/// carries out its directives — the commissioner's calls, dataset reads and node records as child tasks
/// of ``run()`` (one payload's step at a time, as the machine asks), stage events onto a broadcaster, the
/// answers of `complete` calls, the expiry timer.
///
/// The setup codes it hands over never reach its log; its log says which session and payload reached
/// which stage.
package actor CommissioningCoordinator {
    package let commissioner: any Commissioner
    package let nodeStore: any MatterNodeStore
    package let events: EventBroadcaster<CommissioningProgress>
    package nonisolated let timeouts: CommissioningTimeouts
    package let clock: any TBRClock
    package let logger: Logger
    package var machine: CommissioningSessionMachine
    /// Where `complete` calls wait for the machine's answer (it may come before they wait).
    package let answers = ReplySlots<CompletionWaiter, [CommissioningOutcome]>()
    package var nextWaiter: CompletionWaiter = 0
    /// When the machine next wants its timer (the sessions' expiry).
    package let alarm: Alarm
    /// Work for ``run()``'s task group.
    package let jobs: AsyncStream<Job>
    package let jobContinuation: AsyncStream<Job>.Continuation

    /// One step the machine asked for that needs I/O.
    package enum Job: Sendable {
        case readDataset(PayloadRef, ExtendedPANID, StructureID)
        case handOver(PayloadRef, OperationalDataset)
        case commission(PayloadRef, CommissioningRequest)
        case record(PayloadRef, RecordedMatterNode)
        case writeLabel(PayloadRef, NodeID, String)
    }

    package init(
        commissioner: any Commissioner, nodeStore: any MatterNodeStore,
        events: EventBroadcaster<CommissioningProgress>, sessionLifetime: Duration, timeouts: CommissioningTimeouts, clock: any TBRClock,
        logger: Logger
    ) {
        self.commissioner = commissioner
        self.nodeStore = nodeStore
        self.events = events
        self.timeouts = timeouts
        self.clock = clock
        self.alarm = Alarm(clock: clock)
        self.logger = logger
        machine = CommissioningSessionMachine(sessionLifetime: sessionLifetime, backend: commissioner.backendName)
        // Unbounded: the machine asks for one job per session at a time (the next once the last is done).
        (jobs, jobContinuation) = AsyncStream.makeStream(of: Job.self, bufferingPolicy: .unbounded)
    }

    /// Runs the commissioner's background part, the timer and the jobs until the task is cancelled (or
    /// ``finish()``); the jobs read datasets from `networks`.
    package func run(networks: any CommissioningNetworks) async {
        logger.info("Matter commissioning running", [("backend", commissioner.backendName)])
        await withDiscardingTaskGroup { group in
            let commissioner = self.commissioner
            group.addTask { await commissioner.run() }
            group.addTask { await self.alarm.run { await self.timerFired() } }
            for await job in jobs {
                group.addTask { await self.perform(job, networks: networks) }
            }
            group.cancelAll()
        }
    }

    /// Stops taking jobs (``run()`` then ends once its children do).
    package nonisolated func finish() { jobContinuation.finish() }

    // MARK: calls

    /// Opens a session in the structure `view` shows (the service reads it).
    package func prepare(_ view: CommissioningStructureView) async throws(HomeError) -> CommissioningGrant {
        if machine.session(in: view.structure) == nil {
            do { try await commissioner.checkAvailable(timeout: timeouts.call) } catch where error.kind == .notSupported {
                throw HomeError(.notSupported, error.message)
            } catch {
                throw HomeError(.unavailable, "the Matter commissioner (\(commissioner.backendName)) cannot be reached: \(error.message)")
            }
        }
        let (grant, directives) = try machine.prepare(view, id: .random(), now: clock.now(), wall: wallNow())
        logger.info("commissioning session opened", [("session", grant.session.rawValue), ("structure", view.name)])
        perform(directives)
        return grant
    }

    /// Queues a payload in `session` of the structure `view` shows (the service reads it).
    package func commission(_ session: CommissioningSessionID, in view: CommissioningStructureView, payload text: String, options: CommissioningOptions)
        throws(HomeError) -> String
    {
        let (payloadID, directives) = try machine.commission(session, in: view, text: text, options: options, now: clock.now(), wall: wallNow())
        perform(directives)
        return payloadID
    }

    package func complete(_ session: CommissioningSessionID, in structure: StructureID, structureName: String) async throws(HomeError)
        -> [CommissioningOutcome]
    {
        nextWaiter += 1
        let waiter = nextWaiter
        answers.expect(waiter)
        do {
            perform(try machine.complete(session, in: structure, structureName: structureName, waiter: waiter))
        } catch {
            answers.cancel(waiter)
            throw error
        }
        do {
            return try await answers.wait(for: waiter)
        } catch {
            machine.waiterGone(waiter)
            throw HomeError(.unavailable, "completing commissioning session \(session) was cancelled: tbrd is stopping")
        }
    }

    package func cancel(_ session: CommissioningSessionID, in structure: StructureID, structureName: String) throws(HomeError) {
        perform(try machine.cancel(session, in: structure, structureName: structureName, now: clock.now(), wall: wallNow()))
        logger.info("commissioning session cancelled", [("session", session.rawValue)])
    }

    package func share(_ node: NodeID, seconds: Int) async throws(HomeError) -> SharingCodes {
        do {
            return try await commissioner.openCommissioningWindow(node, seconds: seconds, timeout: timeouts.call)
        } catch {
            throw Self.homeError(error, doing: "sharing node \(node)")
        }
    }

    /// A commissioner's error as the device model's.
    package static func homeError(_ error: CommissionerError, doing: String) -> HomeError {
        switch error.kind {
        case .unavailable: HomeError(.unavailable, "\(doing) failed: \(error.message)")
        case .notSupported: HomeError(.notSupported, "\(doing) failed: \(error.message)")
        case .timedOut, .connectionLost, .refused, .invalidResponse: HomeError(.failed, "\(doing) failed: \(error.message)")
        }
    }

    // MARK: directives

    private func perform(_ directives: [CommissioningDirective]) {
        for directive in directives {
            switch directive {
            case .publish(let progress):
                var metadata = [
                    ("session", progress.session.rawValue), ("payload", progress.payloadID), ("stage", progress.stage.rawValue),
                ]
                if let node = progress.nodeID { metadata.append(("node", node.description)) }
                if let failed = progress.failedStage { metadata.append(("failed-stage", failed.rawValue)) }
                if let error = progress.error { metadata.append(("error", error)) }
                if progress.stage == .failed {
                    logger.notice("a Matter payload failed", metadata)
                } else {
                    logger.info("a Matter payload reached a stage", metadata)
                }
                events.publish(progress)
            case .readDataset(let ref, let network, let structure):
                jobContinuation.yield(.readDataset(ref, network, structure))
            case .handOverCredentials(let ref, let dataset):
                jobContinuation.yield(.handOver(ref, dataset))
            case .commission(let ref, let request):
                jobContinuation.yield(.commission(ref, request))
            case .recordNode(let ref, let node):
                jobContinuation.yield(.record(ref, node))
            case .writeLabel(let ref, let node, let label):
                jobContinuation.yield(.writeLabel(ref, node, label))
            case .answer(let waiter, let outcomes):
                answers.deliver(.success(outcomes), to: waiter)
            case .sessionEnded(let session, let structure, let reason):
                logger.info("commissioning session ended", [("session", session.rawValue), ("structure", structure.rawValue), ("reason", reason)])
            case .wake(let instant):
                alarm.set(instant)
            case .cancelWake:
                alarm.cancel()
            }
        }
    }

    /// Carries out one job (in a child task of ``run(networks:)``) and feeds its result to the machine.
    private func perform(_ job: Job, networks: any CommissioningNetworks) async {
        switch job {
        case .readDataset(let ref, let network, let structure):
            let result: Result<OperationalDataset, HomeError>
            do { result = .success(try await networks.activeDataset(of: network, in: structure)) } catch { result = .failure(error) }
            perform(machine.datasetRead(ref, result, now: clock.now(), wall: wallNow()))
        case .handOver(let ref, let dataset):
            var failure: String?
            do { try await commissioner.handOverCredentials(dataset, timeout: timeouts.call) } catch { failure = error.message }
            perform(machine.credentialsHandedOver(ref, error: failure, now: clock.now(), wall: wallNow()))
        case .commission(let ref, let request):
            // The commissioner reports stages from its own context; a stream keeps them in order, and
            // they are all taken in before its result.
            // Unbounded: one element per stage of one commissioning (a handful), none may be lost.
            let (updates, sink) = AsyncStream.makeStream(of: CommissionerProgress.self, bufferingPolicy: .unbounded)
            async let reported: Void = { for await progress in updates { await self.progressed(ref, progress) } }()
            let result: Result<CommissionedNode, CommissionerError>
            do {
                result = .success(try await commissioner.commission(request, timeout: timeouts.commission) { sink.yield($0) })
            } catch {
                result = .failure(error)
            }
            sink.finish()
            await reported
            perform(machine.commissioned(ref, result, now: clock.now(), wall: wallNow()))
        case .record(let ref, let node):
            var failure: String?
            do { try await nodeStore.record(node) } catch { failure = error.message }
            perform(machine.recorded(ref, error: failure, now: clock.now(), wall: wallNow()))
        case .writeLabel(let ref, let node, let label):
            var failure: String?
            do { try await commissioner.writeNodeLabel(node, label, timeout: timeouts.call) } catch { failure = error.message }
            perform(machine.labelWritten(ref, error: failure, now: clock.now(), wall: wallNow()))
        }
    }

    private func progressed(_ ref: PayloadRef, _ progress: CommissionerProgress) {
        perform(machine.progressed(ref, progress, now: clock.now(), wall: wallNow()))
    }

    // MARK: the timer

    private func timerFired() {
        perform(machine.timerFired(now: clock.now(), wall: wallNow()))
    }

    private func wallNow() -> WallTime { WallTime(secondsSinceEpoch: clock.wallTime()) }
}
