import TBRDocuments
import TBRFoundation
import BorderRouterService
import FoundationEssentials
import OpenThreadBR

/// `epskc watch` without tbrd: this process observes what it can.
///
/// otbr-agent signals nothing when a key starts or ends, so a key started by someone else (another
/// tbrctl, a phone app) is noticed by reading each router's `TelemetryData` every half second while no
/// session is open on it: its `epskcActivations` counter moves. The session is then handed to the
/// in-process service (``BorderRouterService/BorderRouterService/restoreEpskcSession(_:)``) with the
/// counters from before the key as its baseline, and the service infers its end and reason as tbrd
/// would. Keys started before the watch are not seen; routers without the telemetry API cannot be
/// watched; sequence numbers count from 1 in this process; `activatedAt` is when the key was noticed.
extension DirectBackend {
    /// How often the routers' telemetry is read while no session is open.
    static let activationPollInterval: Duration = .milliseconds(500)
    /// The duration given to a noticed session, whose real duration is unknown: otbr-agent's maximum.
    static let unknownKeySeconds = 600

    private enum Input: Sendable {
        /// The poller noticed a key start on a router; the session is restored right after.
        case noticed(DeviceID, WallTime)
        /// The service reported an ePSKc event.
        case event(EpskcEvent)
    }

    func watchEpskc(
        router: RouterRef?, since: UInt64?, notes: CommandContext, onEvent: (EpskcWatchEvent) throws -> Bool
    ) async throws {
        guard since == nil else {
            throw ControlError.unavailable(
                "--since replays tbrd's journal of ePSKc events, and tbrd is not running on the \(notes.bus) bus; start tbrd")
        }
        let ids = if let router { [try deviceID(router)] } else { await service.deviceIDs() }
        let events = service.epskcEvents()
        var baselines: [DeviceID: BorderAgentCounters] = [:]
        for id in ids {
            let agent = try agent(RouterRef(id: id.rawValue))
            do {
                baselines[id] = try await agent.read(.borderAgentTelemetry).counters ?? BorderAgentCounters()
            } catch where error.openThreadError == .notImplemented || error.cause == .notSupported {
                notes.note("\(id) has no telemetry API, so its ePSKc sessions cannot be seen without tbrd")
            } catch {
                throw ErrorMapping.controlError(error, doing: "reading the telemetry of \(id)")
            }
        }
        guard !baselines.isEmpty else {
            throw ControlError.unavailable("no border router here can be watched without tbrd; start tbrd")
        }
        notes.note(
            "watching \(baselines.keys.sorted().map(\.rawValue).joined(separator: ", ")) without tbrd: keys are noticed "
                + "from telemetry within 0.5 s (not those started before now), sequence numbers are this process's own")

        let inbox = Inbox<Input>(capacity: 1024)
        let inputs = inbox.stream
        let service = self.service
        let start = baselines
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for await event in events { inbox.post(.event(event)) }
            }
            group.addTask {
                try await Self.pollActivations(service: service, baselines: start) { id, at in
                    inbox.post(.noticed(id, at))
                }
            }
            defer { group.cancelAll() }
            var sequence: UInt64 = 0
            for await input in inputs {
                let event: EpskcWatchEvent
                switch input {
                case .noticed(let id, let at):
                    event = EpskcWatchEvent(event: .epskcModeActivated, sequence: 0, router: id.rawValue, activatedAt: at)
                case .event(.activated(let e)):
                    event = EpskcWatchEvent(
                        event: .epskcModeActivated, sequence: 0, router: e.deviceID.rawValue, activatedAt: e.activatedAt,
                        validSeconds: e.validDurationSeconds)
                case .event(.deactivated(let e)):
                    event = EpskcWatchEvent(
                        event: .epskcModeDeactivated, sequence: 0, router: e.deviceID.rawValue, reason: e.reason.rawValue,
                        detail: e.detail?.rawValue, activatedAt: e.activatedAt, deactivatedAt: e.deactivatedAt)
                }
                guard baselines[DeviceID(stringLiteral: event.router)] != nil else { continue }
                sequence += 1
                var numbered = event
                numbered.sequence = sequence
                guard try onEvent(numbered) else { return }
            }
            // Only a full inbox ends the inputs.
            throw ControlError.unavailable("fell more than \(inbox.capacity) events behind; the watch stops")
        }
    }

    /// Reads the telemetry of every router in `baselines` that has no open session, every
    /// ``activationPollInterval``; when a router's `epskcActivations` moved, reports it through
    /// `noticed` and hands the session to the service, with the counters from before as its baseline.
    /// Runs until cancelled.
    private static func pollActivations(
        service: BorderRouterService, baselines start: [DeviceID: BorderAgentCounters],
        noticed: @Sendable (DeviceID, WallTime) -> Void
    ) async throws {
        var baselines = start
        while true {
            try await Task.sleep(for: activationPollInterval)
            let open = Set(await service.openEpskcSessions().map(\.deviceID))
            for (id, baseline) in baselines.sorted(by: { $0.key < $1.key }) where !open.contains(id) {
                guard let name = try? ThreadInterfaceName(id.rawValue) else { continue }
                let agent = BorderRouterAgent(connection: service.connection, interfaceName: name)
                guard let counters = try? await agent.read(.borderAgentTelemetry).counters else { continue }
                baselines[id] = counters
                guard counters.epskcActivations > baseline.epskcActivations else { continue }
                let now = WallTime(secondsSinceEpoch: Date().timeIntervalSince1970)
                noticed(id, now)
                let instance = try? await service.connection.nameOwner(of: name.busName)
                let record = EpskcSessionRecord(
                    deviceID: id, sessionID: .random(), activatedAt: now, validDurationSeconds: unknownKeySeconds,
                    agentInstance: instance ?? nil, telemetryBaseline: baseline.serialized())
                try? await service.restoreEpskcSession(record)
            }
        }
    }
}
