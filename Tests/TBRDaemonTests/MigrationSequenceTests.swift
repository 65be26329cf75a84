import DBus
import Foundation
import TBRFoundation
import TBRTestKit
import Testing

@testable import TBRDaemon

/// The sequence that failed on a real otbr-agent (issue 47), under the agent's rules as otbr-sim keeps
/// them (AttachAllNodesTo: a pending dataset of 300 s, a newer Pending Timestamp replaces the one held):
/// a channel change, its cancel, then a merge onto a network with another key. The cancelled change's
/// watch slept on to its deadline and then judged the merge, with the change's Pending Timestamp, before
/// the merge's own 300 s had passed: "failed, still on A (another pending dataset … replaced tbrd's)",
/// naming the merge's own Pending Timestamp. tbrd runs in this process, on a clock the test leaps over
/// the 300 s; otbr-sim applies the pending dataset when told, as the agent does when its timer ends.
@Suite struct MigrationSequenceTests {
    /// Log records of the in-process tbrd, and a wake-up at each.
    final class Records: LogSink, Sendable {
        let messages = Locked<[String]>([])
        let changes = ChangeNotifier()
        func write(_ record: LogRecord) {
            messages.withLock { $0.append(record.message) }
            changes.changed()
        }
        func count(_ message: String) -> Int { messages.withLock { $0.filter { $0 == message }.count } }
    }

    static func migration(_ env: DaemonEnvironment) async throws -> [String: Any] {
        let shown = try #require(try await HTTPAPITests.tbrctlJSON(env, ["structure", "show", "Home"]) as? [String: Any])
        return try #require(shown["migration"] as? [String: Any])
    }

    static func step(_ migration: [String: Any]) -> [String: Any] {
        (migration["steps"] as? [[String: Any]])?.first ?? [:]
    }

    /// tbrd in this process on `clock`, logging to `records`, on `env`'s bus and state; cancel the task to stop it.
    static func startTbrd(_ env: DaemonEnvironment, clock: LeapingClock, records: Records) async throws -> Task<Void, any Error> {
        var configuration = DaemonConfiguration()
        configuration.bus = .address(env.address)
        configuration.stateDirectory = env.stateDirectory
        configuration.firewall = .off
        let runtime = try await DaemonRuntime.start(
            configuration: configuration, logger: Logger(label: "tbrd", minimumLevel: .debug, sink: records), clock: clock,
            notifier: ServiceNotifier(environment: [:]), browsesMDNS: false)
        let serving = Task { try await runtime.serve() }
        try await eventually("tbrd owns io.tbrd", wakingOn: env.client.ownerWakeups(of: "io.tbrd")) {
            try await env.client.nameOwner(of: "io.tbrd") != nil
        }
        return serving
    }

    static func tbrctl(_ env: DaemonEnvironment, _ arguments: [String]) async throws -> ProcessResult {
        let r = try await HTTPAPITests.tbrctl(env, arguments)
        #expect(r.status == 0, "tbrctl \(arguments): \(r.stderr)")
        return r
    }

    /// A merge whose router had not moved by its deadline is judged failed; when the router moves after
    /// all (its agent's timer ran late, it was offline), the step becomes moved and the merge done.
    @Test func aRouterJudgedFailedThatMovesLaterIsReportedMoved() async throws {
        try await withDaemon { env throws in
            try await env.startSimulator(["wpan0"])
            let records = Records(), clock = LeapingClock()
            let serving = try await Self.startTbrd(env, clock: clock, records: records)
            defer { serving.cancel() }
            _ = try await Self.tbrctl(env, ["structure", "create", "Home"])
            _ = try await Self.tbrctl(env, ["structure", "add", "Home", "wpan0"])
            let b = try await Self.tbrctl(env, ["dataset", "new", "--name", "Other", "--extpanid", "00000000000000b1", "--channel", "16"])
            _ = try await Self.tbrctl(env, ["network", "add", "Home", "--dataset", b.stdout.trimmingCharacters(in: .whitespacesAndNewlines)])
            _ = try await Self.tbrctl(env, ["network", "preferred", "Home", "00000000000000b1"])
            _ = try await Self.tbrctl(env, ["structure", "migrate", "Home", "--delay", "30"])
            #expect(try await Self.migration(env)["state"] as? String == "pending")

            // Its 300 s and the 30 s of grace pass: still on A, tbrd's pending dataset still there.
            clock.leap(by: .seconds(331))
            try await eventually("the merge is judged", wakingOn: records.changes.wakeups) {
                try await Self.migration(env)["state"] as? String == "failed"
            }
            let failed = Self.step(try await Self.migration(env))
            #expect((failed["detail"] as? String)?.contains("tbrd's pending dataset is still there") == true, "\(failed)")

            // The agent's timer ends late: the router moves, and the record says so.
            _ = try await env.simulatorControl("wpan0").call("ApplyPendingDataset")
            try await eventually("the merge is done after all", wakingOn: records.changes.wakeups) {
                try await Self.migration(env)["state"] as? String == "done"
            }
            let moved = Self.step(try await Self.migration(env))
            #expect(moved["outcome"] as? String == "moved" && (moved["detail"] as? String)?.contains("after its deadline") == true, "\(moved)")
        }
    }

    @Test func aCancelledChannelChangesWatchNeverJudgesTheMergeAfterIt() async throws {
        try await withDaemon { env throws in
            try await env.startSimulator(["wpan0"])
            let records = Records(), clock = LeapingClock()
            let serving = try await Self.startTbrd(env, clock: clock, records: records)
            defer { serving.cancel() }
            func tbrctl(_ arguments: [String]) async throws -> ProcessResult { try await Self.tbrctl(env, arguments) }
            _ = try await tbrctl(["structure", "create", "Home"])
            _ = try await tbrctl(["structure", "add", "Home", "wpan0"])

            // A channel change (over D-Bus the agent's 300 s), cancelled at once: same key, so the cancel is
            // an active dataset with a newer Active Timestamp, and the change's pending dataset will be dropped.
            _ = try await tbrctl(["structure", "channel", "Home", "25", "--delay", "40"])
            #expect(Self.step(try await Self.migration(env))["delayMs"] as? Int == 300_000)
            _ = try await tbrctl(["structure", "migrate", "Home", "--cancel"])
            #expect(try await Self.migration(env)["state"] as? String == "cancelled")

            // A minute later, a merge onto B: another key, an older Active Timestamp.
            clock.leap(by: .seconds(60))
            let b = try await tbrctl(["dataset", "new", "--name", "Other", "--extpanid", "00000000000000b0", "--channel", "15"])
            let hexB = b.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            _ = try await tbrctl(["network", "add", "Home", "--dataset", hexB])
            _ = try await tbrctl(["network", "preferred", "Home", "00000000000000b0"])
            _ = try await tbrctl(["structure", "migrate", "Home", "--delay", "30"])
            let merge = try await Self.migration(env)
            #expect(merge["state"] as? String == "pending" && merge["kind"] as? String == "merge")

            // 300 s on: the cancelled change's deadline (its 300 s and 30 s of grace) has passed, the merge's
            // has not. The change left no timer and no follow behind (MigrationMachineTests checks that a
            // follow of another migration settles nothing): the merge stays pending.
            clock.leap(by: .seconds(300))
            let still = try await Self.migration(env)
            #expect(still["state"] as? String == "pending", "the merge is not judged by the change's deadline: \(Self.step(still))")

            // The agent's timer ends: B takes effect, and the merge is done, in time (never judged failed).
            _ = try await env.simulatorControl("wpan0").call("ApplyPendingDataset")
            try await eventually("the merge is done", wakingOn: records.changes.wakeups) {
                try await Self.migration(env)["state"] as? String == "done"
            }
            #expect((Self.step(try await Self.migration(env))["detail"] as? String)?.contains("after its deadline") == false)
            #expect(Self.step(try await Self.migration(env))["outcome"] as? String == "moved")
        }
    }
}
