internal import Dispatch
import OpenThreadBR
import TBRFoundation

/// The ePSKc's DTLS transport (EpskcTransport.swift) started and stopped with the key, and what it
/// reports carried to ``EphemeralKeyManager``.
extension SimulatedAgent {
    /// Serves the key of `generation` on its port.
    func startEpskcTransport(generation: UInt64) {
        stopEpskcTransport()
        guard let key = runtime.epskc.key else { return }
        let requested = epskcAdvertisedKey?.generation == generation
        let port = epskcPort()
        let agent = WeakAgent(self)
        let events = EpskcTransport.Events(
            handshake: { succeeded in
                Self.blocking { await agent.agent?.transportHandshake(succeeded, generation: generation) ?? false }
            },
            activeDataset: {
                Self.blocking { await agent.agent?.transportActiveDataset(generation: generation) ?? nil }
            },
            sessionEnded: { timedOut in
                Self.blocking { await agent.agent?.transportSessionEnded(timedOut, generation: generation) }
            })
        do {
            let transport = try EpskcTransport(
                port: port, fixed: requested, key: key, retryHold: configuration.epskcRetryHold, events: events, logger: logger)
            epskcAdvertisedKey = (generation, transport.port)
            epskcTransport = transport
        } catch {
            logger.warning("ePSKc DTLS port could not be opened", [("port", String(port)), ("error", error.description)])
        }
    }

    /// The key's state as OpenThread names it, and its DTLS port (0 without a key): the control
    /// interface's `EphemeralKeyState`.
    func ephemeralKeyState() -> (String, UInt16) {
        (runtime.epskc.state.rawValue, epskcKeyActive ? (epskcTransport?.port ?? epskcPort()) : 0)
    }

    /// Closes the key's port, ending any session.
    func stopEpskcTransport() {
        epskcTransport?.stop()
        epskcTransport = nil
    }

    private func transportHandshake(_ succeeded: Bool, generation: UInt64) -> Bool {
        guard runtime.epskc.generation == generation, epskcKeyActive else { return false }
        if succeeded {
            runtime.epskc.handshakeSucceeded(now: uptimeMs)
        } else {
            applyTimer(runtime.epskc.handshakeFailed(now: uptimeMs))
        }
        return runtime.epskc.generation == generation && epskcKeyActive
    }

    private func transportActiveDataset(generation: UInt64) -> [UInt8]? {
        guard runtime.epskc.generation == generation, let tlvs = persistent.activeDataset else { return nil }
        runtime.epskc.activeDatasetRead(now: uptimeMs)
        return tlvs
    }

    private func transportSessionEnded(_ timedOut: Bool, generation: UInt64) {
        guard runtime.epskc.generation == generation else { return }
        _ = disconnectCommissioner()
    }

    /// Runs `body` on the actor from the transport's thread, and waits for it.
    nonisolated static func blocking<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
        let done = DispatchSemaphore(value: 0)
        let result = Locked<T?>(nil)
        Task {
            let value = await body()
            result.withLock { $0 = value }
            done.signal()
        }
        done.wait()
        return result.withLock { $0! }
    }
}

/// The agent as the transport's thread holds it: not kept alive by it.
private final class WeakAgent: Sendable {
    weak let agent: SimulatedAgent?
    init(_ agent: SimulatedAgent) { self.agent = agent }
}
