import Synchronization
import TBRFoundation
import TBRLifecycle
import TBRTestKit
import Testing

@Suite("ServiceGroup, with signals sent by hand")
struct ServiceGroupTests {
    func group(
        _ services: [ServiceConfiguration], signals: ManualSignalSource, timeout: Duration? = .seconds(30),
        onReload: (@Sendable (UnixSignal) async -> Void)? = nil
    ) -> ServiceGroup {
        ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: services, onReload: onReload, gracefulShutdownTimeout: timeout, signalSource: signals,
                logger: testLogger))
    }

    @Test("SIGTERM stops two services, the last started first")
    func sigtermStopsServices() async throws {
        let recorder = Recorder()
        let signals = ManualSignalSource()
        let group = group(
            [ServiceConfiguration(SleepingService(name: "a", recorder: recorder)),
             ServiceConfiguration(SleepingService(name: "b", recorder: recorder))], signals: signals)
        try await withTimeout {
            async let run: Void = group.run()
            try await recorder.waitFor("a started")
            try await recorder.waitFor("b started")
            signals.send(.sigterm)
            try await run
        }
        #expect(recorder.log.suffix(2) == ["b cancelled", "a cancelled"])
        #expect(signals.trapped.withLock { $0 } == [.sigterm, .sigint])
    }

    @Test("a service that throws stops the others and its error is rethrown")
    func failureStopsOthers() async throws {
        let recorder = Recorder()
        let group = group(
            [ServiceConfiguration(SleepingService(name: "a", recorder: recorder)),
             ServiceConfiguration(FailingService(after: "a started", recorder: recorder))],
            signals: ManualSignalSource())
        await #expect(throws: FailingService.Failure(message: "boom")) {
            try await withTimeout { try await group.run() }
        }
        #expect(recorder.log.contains("a cancelled"))
    }

    @Test("a service that returns early ends the group, as its behaviour says")
    func earlyReturn() async throws {
        let recorder = Recorder()
        let service = ReturningService(after: "a started", recorder: recorder)
        let sleeper = SleepingService(name: "a", recorder: recorder)

        let cancelling = group([ServiceConfiguration(sleeper), ServiceConfiguration(service)], signals: ManualSignalSource())
        await #expect(throws: ServiceGroupError.serviceFinishedUnexpectedly(service: "ReturningService")) {
            try await withTimeout { try await cancelling.run() }
        }
        #expect(recorder.log.contains("a cancelled"))

        let graceful = group(
            [ServiceConfiguration(sleeper), ServiceConfiguration(service, successTerminationBehavior: .gracefullyShutdownGroup)],
            signals: ManualSignalSource())
        try await withTimeout { try await graceful.run() }

        let signals = ManualSignalSource()
        let ignoring = group(
            [ServiceConfiguration(sleeper), ServiceConfiguration(service, name: "r", successTerminationBehavior: .ignore)],
            signals: signals)
        let returned = recorder.count("returning returned")
        let cancelled = recorder.count("a cancelled")
        try await withTimeout {
            async let run: Void = ignoring.run()
            try await eventually("r returned", wakingOn: recorder.changes.wakeups) { recorder.count("returning returned") > returned }
            // The other service keeps running: it is cancelled by the signal, not by r returning.
            recorder.record("test sends SIGINT")
            signals.send(.sigint)
            try await run
        }
        #expect(recorder.count("a cancelled") == cancelled + 1)
        #expect(recorder.log.suffix(2) == ["test sends SIGINT", "a cancelled"], "a was cancelled only after the signal")
    }

    @Test("SIGHUP calls the reload hook and stops nothing")
    func reload() async throws {
        let recorder = Recorder()
        let signals = ManualSignalSource()
        let reloads = Locked(0)
        let group = group(
            [ServiceConfiguration(SleepingService(name: "a", recorder: recorder))], signals: signals,
            onReload: { signal in
                #expect(signal == .sighup)
                let n = reloads.withLock { n in
                    n += 1
                    return n
                }
                recorder.record("reload \(n)")
            })
        try await withTimeout {
            async let run: Void = group.run()
            try await recorder.waitFor("a started")
            signals.send(.sighup)
            try await recorder.waitFor("reload 1")
            signals.send(.sighup)
            try await recorder.waitFor("reload 2")
            #expect(!recorder.log.contains("a cancelled"))
            signals.send(.sigterm)
            try await run
        }
        #expect(recorder.log == ["a started", "reload 1", "reload 2", "a cancelled"])
        #expect(signals.trapped.withLock { $0 } == [.sigterm, .sigint, .sighup])
    }

    @Test("a reload in progress does not hold back a shutdown signal")
    func slowReload() async throws {
        let recorder = Recorder()
        let signals = ManualSignalSource()
        let group = group(
            [ServiceConfiguration(SleepingService(name: "a", recorder: recorder))], signals: signals,
            onReload: { _ in
                recorder.record("reload started")
                try? await Task.sleep(for: .seconds(3600))
                recorder.record("reload ended")
            })
        try await withTimeout {
            async let run: Void = group.run()
            try await recorder.waitFor("a started")
            signals.send(.sighup)
            try await recorder.waitFor("reload started")
            signals.send(.sigterm)
            try await run
        }
        #expect(recorder.log.contains("a cancelled"))
    }

    @Test("a notified service finishes its work before the services started before it stop")
    func gracefulDrain() async throws {
        let recorder = Recorder()
        let signals = ManualSignalSource()
        let group = group(
            [ServiceConfiguration(SleepingService(name: "a", recorder: recorder)),
             ServiceConfiguration(DrainingService(name: "d", recorder: recorder), gracefulShutdownBehavior: .notify)],
            signals: signals)
        try await withTimeout {
            async let run: Void = group.run()
            try await recorder.waitFor("d started")
            try await recorder.waitFor("a started")
            signals.send(.sigterm)
            try await run
        }
        #expect(recorder.log.suffix(3) == ["d saw the shutdown", "d drained", "a cancelled"])
    }

    @Test("a notified service that ignores the shutdown is cancelled after the timeout")
    func timeoutCancels() async throws {
        let recorder = Recorder()
        let signals = ManualSignalSource()
        let group = group(
            [ServiceConfiguration(
                DrainingService(name: "d", recorder: recorder, ignoresShutdown: true), gracefulShutdownBehavior: .notify)],
            signals: signals, timeout: .milliseconds(100))
        try await withTimeout {
            async let run: Void = group.run()
            try await recorder.waitFor("d started")
            signals.send(.sigterm)
            try await run
        }
        #expect(recorder.log == ["d started", "d ignored the shutdown", "d cancelled"])
    }

    @Test("the shutdown signal again cancels what is still running")
    func secondSignalEscalates() async throws {
        let recorder = Recorder()
        let signals = ManualSignalSource()
        let group = group(
            [ServiceConfiguration(
                DrainingService(name: "d", recorder: recorder, ignoresShutdown: true), gracefulShutdownBehavior: .notify)],
            signals: signals, timeout: nil)
        try await withTimeout {
            async let run: Void = group.run()
            try await recorder.waitFor("d started")
            signals.send(.sigterm)
            try await recorder.waitFor("d ignored the shutdown")
            signals.send(.sigterm)
            try await run
        }
        #expect(recorder.log.last == "d cancelled")
    }

    @Test("a shutdown can be triggered from code, even before run()")
    func triggeredFromCode() async throws {
        let recorder = Recorder()
        let group = group([ServiceConfiguration(SleepingService(name: "a", recorder: recorder))], signals: ManualSignalSource())
        group.triggerGracefulShutdown()
        try await withTimeout { try await group.run() }
        await #expect(throws: ServiceGroupError.alreadyRunning) { try await group.run() }
    }

    @Test("cancelling the task that runs the group cancels every service")
    func cancellingRun() async throws {
        let recorder = Recorder()
        let group = group(
            [ServiceConfiguration(SleepingService(name: "a", recorder: recorder)),
             ServiceConfiguration(SleepingService(name: "b", recorder: recorder))], signals: ManualSignalSource())
        let task = Task { try await group.run() }
        try await recorder.waitFor("a started")
        try await recorder.waitFor("b started")
        task.cancel()
        let result = try await withTimeout { await task.result }
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(Set(recorder.log.suffix(2)) == ["a cancelled", "b cancelled"])
    }

    @Test("an empty group returns at once")
    func emptyGroup() async throws {
        let group = group([], signals: ManualSignalSource())
        try await withTimeout { try await group.run() }
    }
}
