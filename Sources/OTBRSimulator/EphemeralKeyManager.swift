import OpenThreadBR

/// OpenThread's ePSKc state machine (`border_agent_ephemeral_key.cpp`), sans I/O: handlers update the
/// state, the counters and the history, and return what the agent must do with its timer.
///
/// States: disabled → (enable) stopped → (start) started → (DTLS session with the key) connected →
/// (petition accepted) accepted. The key is single use: when a session that reached connected ends, the
/// key stays connected/accepted for the agent's disconnect guard time, then stops (`REMOTE_CLOSE`;
/// `../otbr/README.md`, "A real commissioner candidate using the key": 2.0 s). Ten failed handshakes
/// stop it too; so do its lifetime running out (at once, also during the guard), an explicit stop and
/// switching the feature off.
struct EphemeralKeyManager: Sendable {
    /// `otBorderAgentEphemeralKeyState`.
    enum State: String, Sendable {
        case disabled, stopped, started, connected, accepted
    }

    /// Why a key stopped (`DeactivationReason`), mapped to its counter and journey reason.
    enum StopReason: Sendable {
        case localDisconnect, peerDisconnect, sessionError, sessionTimeout, maxFailedAttempts, epskcTimeout

        var journeyReason: EpskcDeactivationReason {
            switch self {
            case .localDisconnect: .localClose
            case .peerDisconnect: .remoteClose
            case .sessionError: .sessionError
            case .sessionTimeout: .sessionTimeout
            case .maxFailedAttempts: .maxAttempts
            case .epskcTimeout: .epskcTimeout
            }
        }
    }

    /// What the agent must do with the key's timers (its lifetime and the disconnect guard).
    enum TimerAction: Equatable, Sendable {
        case none
        /// Start (or restart) the lifetime timer for `lifetime`; it belongs to key number `generation`.
        case start(lifetime: Duration, generation: UInt64)
        /// Start the disconnect guard of key number `generation`; when it runs out, call
        /// ``guardElapsed(generation:now:)``.
        case startGuard(generation: UInt64)
        /// Cancel both timers: the key stopped.
        case cancel
    }

    /// `kMaxConnectionAttempts`.
    static let maxConnectionAttempts = 10
    /// `OT_BORDER_AGENT_DEFAULT_EPHEMERAL_KEY_TIMEOUT`.
    static let defaultLifetimeMs: UInt32 = 120_000
    /// `OT_BORDER_AGENT_MAX_EPHEMERAL_KEY_TIMEOUT`.
    static let maxLifetimeMs: UInt32 = 600_000
    /// `OT_BORDER_AGENT_MIN_EPHEMERAL_KEY_LENGTH`…`MAX`.
    static let keyLengths = 6...32

    private(set) var state: State
    /// The active key; never logged.
    private(set) var key: String?
    /// Identifies the active key, so that a stale timer cannot end a newer key.
    private(set) var generation: UInt64 = 0
    private(set) var failedAttempts = 0
    /// Whether the connected commissioner closed its session and the key waits out the disconnect guard.
    private(set) var sessionClosed = false
    var counters = BorderAgentCounters()
    var history = EpskcHistory()

    /// A manager starting enabled (STOPPED) or disabled.
    init(enabled: Bool) { state = enabled ? .stopped : .disabled }

    /// `otBorderAgentEphemeralKeySetEnabled`.
    mutating func setEnabled(_ enabled: Bool, now: UInt32) -> TimerAction {
        if enabled {
            if state == .disabled { state = .stopped }
            return .none
        }
        guard state != .disabled else { return .none }
        let action = stop(.localDisconnect, now: now)
        state = .disabled
        return action
    }

    /// `otBorderAgentEphemeralKeyStart`: InvalidState unless stopped, InvalidArgs for a key of the wrong
    /// length; lifetime 0 means the default and longer than the maximum is clamped.
    mutating func start(key newKey: String, lifetimeMs: UInt32, now: UInt32) -> Result<TimerAction, OpenThreadError> {
        guard state == .stopped else {
            counters.epskcInvalidBaStateErrors &+= 1
            return .failure(.invalidState)
        }
        guard Self.keyLengths.contains(newKey.utf8.count) else {
            counters.epskcInvalidArgsErrors &+= 1
            return .failure(.invalidArgs)
        }
        let lifetime = min(lifetimeMs == 0 ? Self.defaultLifetimeMs : lifetimeMs, Self.maxLifetimeMs)
        key = newKey
        failedAttempts = 0
        sessionClosed = false
        generation &+= 1
        state = .started
        counters.epskcActivations &+= 1
        history.record(.activated, at: now)
        return .success(.start(lifetime: .milliseconds(Int64(lifetime)), generation: generation))
    }

    /// Stops the key for `reason`, counting it; nothing happens unless a key is active.
    mutating func stop(_ reason: StopReason, now: UInt32) -> TimerAction {
        guard [.started, .connected, .accepted].contains(state) else { return .none }
        state = .stopped
        key = nil
        sessionClosed = false
        switch reason {
        case .localDisconnect, .sessionTimeout: counters.epskcDeactivationClears &+= 1
        case .peerDisconnect: counters.epskcDeactivationDisconnects &+= 1
        case .sessionError: counters.epskcStartSecureSessionErrors &+= 1
        case .maxFailedAttempts: counters.epskcDeactivationMaxAttempts &+= 1
        case .epskcTimeout: counters.epskcDeactivationTimeouts &+= 1
        }
        history.record(.deactivated(reason.journeyReason), at: now)
        return .cancel
    }

    /// Ends the key without counting anything or recording a journey (the simulator's
    /// `EndEphemeralKeyEarly`, for tests of "ended, nothing says why").
    mutating func endSilently() -> TimerAction {
        guard [.started, .connected, .accepted].contains(state) else { return .none }
        state = .stopped
        key = nil
        sessionClosed = false
        return .cancel
    }

    /// The key's lifetime ran out (timer of key `generation`).
    mutating func expire(generation expired: UInt64, now: UInt32) -> TimerAction {
        guard expired == generation else { return .none }
        return stop(.epskcTimeout, now: now)
    }

    /// A commissioner's DTLS handshake with `candidate`: with the right key the session connects;
    /// with a wrong one the attempt fails, and the tenth failure stops the key.
    /// - Returns: whether the handshake succeeded, and the timer action.
    mutating func handshake(with candidate: String, now: UInt32) -> (connected: Bool, timer: TimerAction) {
        guard state == .started, let key else { return (false, .none) }
        if candidate == key {
            handshakeSucceeded(now: now)
            return (true, .none)
        }
        return (false, handshakeFailed(now: now))
    }

    /// A DTLS handshake with the key completed: the session connects.
    mutating func handshakeSucceeded(now: UInt32) {
        guard state == .started else { return }
        state = .connected
        counters.epskcSecureSessionSuccesses &+= 1
        history.record(.connected, at: now)
    }

    /// A DTLS handshake failed on the password; the tenth failure stops the key.
    mutating func handshakeFailed(now: UInt32) -> TimerAction {
        guard state == .started else { return .none }
        counters.epskcSecureSessionFailures &+= 1
        failedAttempts += 1
        guard failedAttempts >= Self.maxConnectionAttempts else { return .none }
        return stop(.maxFailedAttempts, now: now)
    }

    /// The connected commissioner's petition was accepted by the leader.
    mutating func petitionAccepted(now: UInt32) {
        guard state == .connected else { return }
        state = .accepted
        counters.epskcCommissionerPetitions &+= 1
        history.record(.petitioned, at: now)
    }

    /// The connected commissioner sent MGMT_ACTIVE_GET.
    mutating func activeDatasetRead(now: UInt32) {
        guard state == .connected || state == .accepted else { return }
        counters.mgmtActiveGets &+= 1
        history.record(.retrievedActiveDataset, at: now)
    }

    /// The commissioner closed its session: the key has been used. It stays connected/accepted until the
    /// disconnect guard runs out (``TimerAction/startGuard(generation:)``).
    /// - Returns: whether a session was open (false when none was, or it already closed).
    mutating func peerDisconnected(now: UInt32) -> (wasConnected: Bool, timer: TimerAction) {
        guard state == .connected || state == .accepted, !sessionClosed else { return (false, .none) }
        sessionClosed = true
        return (true, .startGuard(generation: generation))
    }

    /// The disconnect guard of key `generation` ran out: the used key stops (`REMOTE_CLOSE`).
    mutating func guardElapsed(generation elapsed: UInt64, now: UInt32) -> TimerAction {
        guard elapsed == generation, sessionClosed else { return .none }
        return stop(.peerDisconnect, now: now)
    }
}
