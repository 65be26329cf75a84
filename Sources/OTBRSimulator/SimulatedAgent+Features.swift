import DBus
import OpenThreadBR

/// NAT64, DHCPv6 prefix delegation, DNS upstream queries, feature flags and the ePSKc glue.
extension SimulatedAgent {
    // MARK: build defaults

    /// What a new OpenThread instance starts with (`RcpHost::Init`, at start and after `Reset`): with
    /// feature flags built in, every feature stays off until the flags say otherwise; without, every
    /// feature built in is switched on. PD goes on before OTBR registers its state callback, so that
    /// first change is not signalled.
    func applyBuildDefaults() async {
        guard !configuration.featureFlagsBuiltIn else { return }
        runtime.dnsUpstreamEnabled = configuration.dnsUpstreamBuiltIn
        runtime.dhcp6Enabled = capabilities.dhcp6PD
        runtime.lastDhcp6State = dhcp6State
        if capabilities.nat64 { await setNat64Enabled(true) }
    }

    // MARK: NAT64

    /// `otNat64SetEnabled`.
    func setNat64Enabled(_ enabled: Bool) async {
        runtime.nat64Enabled = enabled
        await updateNat64()
    }

    /// Moves the NAT64 state: disabled when off; not running while not attached; on a leader idle after
    /// a fifth of the NAT64 delay and active after all of it (observed: ~1 s and ~5 s).
    func updateNat64() async {
        guard runtime.nat64Enabled else {
            runtime.nat64Phase = .disabled
            cancelTimer(.nat64)
            return
        }
        guard runtime.role.isAttached else {
            runtime.nat64Phase = .notRunning
            cancelTimer(.nat64)
            return
        }
        guard runtime.nat64Phase == .disabled || runtime.nat64Phase == .notRunning else { return }
        runtime.nat64Phase = .notRunning
        let total = configuration.nat64Delay
        schedule(.nat64, after: total / 5) { agent in await agent.nat64Step(to: .idle, next: total - total / 5) }
    }

    private func nat64Step(to phase: Nat64Phase, next: Duration?) async {
        guard runtime.nat64Enabled, runtime.role.isAttached else { return }
        runtime.nat64Phase = phase
        if let next { schedule(.nat64, after: next) { agent in await agent.nat64Step(to: .active, next: nil) } }
    }

    // MARK: DHCPv6-PD

    /// The state the agent would report: off without the build option or the flag; running on an
    /// attached node; stopped otherwise.
    var dhcp6State: Dhcp6PdState {
        guard capabilities.dhcp6PD, runtime.dhcp6Enabled else { return .disabled }
        return runtime.role.isAttached ? .running : .stopped
    }

    /// Signals `Dhcp6PdState` when it changed (agents built with DHCPv6-PD only, and only while OTBR's
    /// callback is registered: not after `Reset`).
    func updateDhcp6() async {
        let state = dhcp6State
        guard state != runtime.lastDhcp6State else { return }
        runtime.lastDhcp6State = state
        guard capabilities.dhcp6PD, runtime.dhcp6Signals else { return }
        await emitChanged("Dhcp6PdState", .string(state.wireName))
    }

    // MARK: feature flags

    /// `Set FeatureFlagListData` (builds with feature flags): the ePSKc feature follows field 8 (absent =
    /// off), then every flag of a feature built in is applied (absent = off: the proto2 defaults), and
    /// the list is kept as protobuf re-serializes it (known fields in order, then the unknown ones as
    /// received).
    func applyFeatureFlags(_ bytes: [UInt8]) async throws(OpenThreadError) {
        let flags: FeatureFlagList
        do { flags = try FeatureFlagList(serialized: bytes) } catch { throw .invalidArgs }
        applyTimer(runtime.epskc.setEnabled(flags.enableEphemeralKey ?? false, now: uptimeMs))
        runtime.featureFlagBytes = flags.serialized()
        if capabilities.nat64 { await setNat64Enabled(flags.enableNat64 ?? false) }
        if configuration.dnsUpstreamBuiltIn { runtime.dnsUpstreamEnabled = flags.enableDnsUpstreamQuery ?? false }
        if capabilities.dhcp6PD {
            runtime.dhcp6Enabled = flags.enableDhcp6PD ?? false
            await updateDhcp6()
        }
    }

    /// Changes what the agent reports it is built with (control interface).
    func setCapabilities(_ new: SimulatedCapabilities) async {
        capabilities = new
        if !new.nat64 { await setNat64Enabled(false) }
        await updateDhcp6()
    }

    // MARK: ePSKc

    /// Carries out the ePSKc manager's timer decision.
    func applyTimer(_ action: EphemeralKeyManager.TimerAction) {
        switch action {
        case .none:
            break
        case .cancel:
            cancelTimer(.epskc)
            cancelTimer(.epskcGuard)
            stopEpskcTransport()
        case .start(let lifetime, let generation):
            schedule(.epskc, after: lifetime) { agent in await agent.epskcExpired(generation) }
            startEpskcTransport(generation: generation)
        case .startGuard(let generation):
            schedule(.epskcGuard, after: configuration.disconnectGuard) { agent in await agent.epskcGuardElapsed(generation) }
        }
    }

    private func epskcExpired(_ generation: UInt64) {
        applyTimer(runtime.epskc.expire(generation: generation, now: uptimeMs))
    }

    private func epskcGuardElapsed(_ generation: UInt64) {
        applyTimer(runtime.epskc.guardElapsed(generation: generation, now: uptimeMs))
    }

    /// A commissioner tries `key`: on success it connects and, when the node is attached, its petition
    /// is accepted.
    /// - Returns: whether the DTLS handshake succeeded.
    func connectCommissioner(key: String) -> Bool {
        guard configuration.epskcBuiltIn else { return false }
        let (connected, timer) = runtime.epskc.handshake(with: key, now: uptimeMs)
        applyTimer(timer)
        guard connected else { return false }
        if runtime.role.isAttached { runtime.epskc.petitionAccepted(now: uptimeMs) }
        return true
    }

    /// The connected commissioner closes its session; the key has been used. It reads connected (or
    /// accepted) for `--disconnect-guard` more, then stops (`REMOTE_CLOSE`), unless its lifetime ends first.
    /// - Returns: whether a session was connected (false also for a session that already closed).
    func disconnectCommissioner() -> Bool {
        let (was, timer) = runtime.epskc.peerDisconnected(now: uptimeMs)
        applyTimer(timer)
        return was
    }

    /// The full use of a key by a commissioner: connect, petition, read the active dataset, disconnect;
    /// the key stops when the disconnect guard runs out (``disconnectCommissioner()``).
    /// - Returns: whether the key was accepted.
    func useEphemeralKey(_ key: String) -> Bool {
        guard connectCommissioner(key: key) else { return false }
        if runtime.role.isAttached { runtime.epskc.activeDatasetRead(now: uptimeMs) }
        _ = disconnectCommissioner()
        return true
    }

    /// Ends the active key without a counter or a journey.
    /// - Returns: whether a key was active.
    func endEphemeralKeyEarly() -> Bool {
        let action = runtime.epskc.endSilently()
        applyTimer(action)
        return action == .cancel
    }
}
