import DeviceModel
import OpenThreadBR

/// The values ``EpskcSessionMachine`` keeps and takes.
extension EpskcSessionMachine {
    /// How often telemetry is read while a key is active, and how long after the deadline the machine
    /// waits for the router's own timeout to show in telemetry.
    struct Timing: Hashable, Sendable {
        var pollInterval: Duration
        var deadlineGrace: Duration
    }

    /// The open session.
    struct Session: Hashable, Sendable {
        var id: EpskcSessionID
        var activatedAt: Instant
        var activatedWall: WallTime
        var validSeconds: Int
        var baseline: BorderAgentCounters?
        var agentInstance: String?
        var nextPoll: Instant

        var deadline: Instant { activatedAt.advanced(by: .seconds(validSeconds)) }

        /// The wall time of monotonic instant `instant` of this session.
        func wall(_ instant: Instant) -> WallTime { activatedWall.advanced(by: instant - activatedAt) }
    }

    /// A key the agent granted: the input that opens a session.
    struct Grant: Hashable, Sendable {
        var id: EpskcSessionID
        var validSeconds: Int
        /// When the agent's reply arrived.
        var now: Instant
        var wall: WallTime
    }

    /// The telemetry read the machine asked for and awaits: what its reading is for.
    enum AwaitedReading: Hashable, Sendable {
        /// A poll while a key is active, the last look at the deadline, or the first look after a restore.
        case poll
        /// Before `ActivateEphemeralKeyMode`: the new session's baseline, and whether the open session
        /// ended unnoticed.
        case activationBaseline
        /// The agent granted `grant` although a session was open, so that session's key had ended: what
        /// the agent says about it (and the new baseline).
        case settling(Grant)
        /// Before `DeactivateEphemeralKeyMode`: whether the key already ended by itself.
        case deactivationCheck
        /// After `DeactivateEphemeralKeyMode(true)` replied at `repliedAt`: whether the agent kept the key.
        case retainCheck(repliedAt: Instant)
        /// The `_meshcop-e._udp` service went away at `at`.
        case serviceWithdrawn(at: Instant)
    }

    /// A command in progress, between its request and the agent's answer.
    enum Command: Hashable, Sendable {
        case activating(baseline: BorderAgentCounters?)
        case deactivating(retainActiveSession: Bool)
    }

    /// `restore` found another session open on the router.
    struct OtherSessionOpen: Error, Hashable, Sendable {
        var open: EpskcSessionID
    }
}
