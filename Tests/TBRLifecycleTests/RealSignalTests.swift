import Foundation
import Synchronization
import TBRLifecycle
import TBRTestKit
import Testing

/// The handler address of `signal`'s current disposition (0 is SIG_DFL, 1 is SIG_IGN).
func disposition(_ signal: UnixSignal) -> Int {
    var action = sigaction()
    sigaction(signal.rawValue, nil, &action)
    return unsafeBitCast(action.__sigaction_handler.sa_handler, to: Int.self)
}

/// Real signals sent to the test process itself. Serialized: the process has one disposition per signal.
/// Each signal is sent only once its trap is in place, which ``UnixSignals/ready()`` and the group
/// (which waits for it before starting services) guarantee; until then a trapped signal is ignored, never
/// fatal.
@Suite("Real Unix signals sent to this process", .serialized)
struct RealSignalTests {
    @Test("UnixSignals delivers a raised signal, twice in a row, and restores the disposition")
    func unixSignals() async throws {
        let before = disposition(.sigusr1)
        for round in 1...2 {
            let signals = UnixSignals(trapping: [.sigusr1, .sigusr2])
            await signals.ready()
            #expect(disposition(.sigusr1) != 0, "round \(round): SIGUSR1 must not keep its default action")
            kill(getpid(), SIGUSR2)
            kill(getpid(), SIGUSR1)
            let received = try await withTimeout(.seconds(10), "round \(round)") {
                var seen: Set<UnixSignal> = []
                for await signal in signals {
                    seen.insert(signal)
                    if seen.count == 2 { break }
                }
                return seen
            }
            #expect(received == [.sigusr1, .sigusr2])
            signals.cancel()
            #expect(disposition(.sigusr1) == before, "round \(round): the previous disposition is back")
        }
    }

    @Test("SIGTERM sent to the process stops a group; the disposition is restored afterwards")
    func sigtermStopsGroup() async throws {
        let before = disposition(.sigterm)
        let recorder = Recorder()
        let group = ServiceGroup(
            services: [SleepingService(name: "a", recorder: recorder), SleepingService(name: "b", recorder: recorder)],
            logger: testLogger)
        try await withTimeout(.seconds(20), "the group") {
            async let run: Void = group.run()
            try await recorder.waitFor("a started")
            try await recorder.waitFor("b started")
            #expect(disposition(.sigterm) != 0)
            kill(getpid(), SIGTERM)
            try await run
        }
        #expect(recorder.log.suffix(2) == ["b cancelled", "a cancelled"])
        #expect(disposition(.sigterm) == before)
    }

    @Test("SIGHUP sent to the process reloads without stopping; SIGTERM then stops")
    func sighupReloads() async throws {
        let recorder = Recorder()
        let group = ServiceGroup(
            services: [SleepingService(name: "a", recorder: recorder)],
            onReload: { signal in recorder.record("reload \(signal)") }, logger: testLogger)
        try await withTimeout(.seconds(20), "the group") {
            async let run: Void = group.run()
            try await recorder.waitFor("a started")
            kill(getpid(), SIGHUP)
            try await recorder.waitFor("reload SIGHUP")
            // Nothing stops until SIGTERM: "a cancelled" comes after this mark, never before.
            recorder.record("test sends SIGTERM")
            kill(getpid(), SIGTERM)
            try await run
        }
        #expect(recorder.log == ["a started", "reload SIGHUP", "test sends SIGTERM", "a cancelled"])
    }
}
