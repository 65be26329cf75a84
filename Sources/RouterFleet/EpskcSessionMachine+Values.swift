import DeviceModel
package import OpenThreadBR

/// The values ``EpskcSessionMachine`` keeps and takes.
extension EpskcSessionMachine {
    /// How often telemetry is read while a key is active, and how long after the deadline the machine
    /// waits for the router's own timeout to show in telemetry.
    package struct Timing: Hashable, Sendable {
        package var pollInterval: Duration
        package var deadlineGrace: Duration
        /// How long after a session ended a `_meshcop-e._udp` appearance may still be that session's key
        /// announced late (the real agent announces it up to a second after activation); without telemetry
        /// to ask, such an appearance opens nothing.
        package var lateAnnouncement: Duration = .seconds(2)

        package init(pollInterval: Duration, deadlineGrace: Duration, lateAnnouncement: Duration = .seconds(2)) {
            self.pollInterval = pollInterval
            self.deadlineGrace = deadlineGrace
            self.lateAnnouncement = lateAnnouncement
        }
    }

    /// The open session.
    package struct Session: Hashable, Sendable {
        var id: EpskcSessionID
        var activatedAt: Instant
        var activatedWall: WallTime
        /// How long the key was granted for; 0 when unknown (a key started outside this service).
        var validSeconds: Int
        var baseline: BorderAgentCounters?
        var agentInstance: String?
        var nextPoll: Instant
        /// Whether the key's `_meshcop-e._udp` service has been seen (mDNS).
        var serviceSeen = false

        /// Whether the key's validity is known (a key this service activated, or restored from its journal).
        var validityKnown: Bool { validSeconds > 0 }

        /// When the key expires; for a key of unknown validity, the latest it can (OpenThread's maximum
        /// lifetime, 600 s, from when it was seen).
        var deadline: Instant {
            activatedAt.advanced(by: .seconds(validityKnown ? validSeconds : EpskcSessionMachine.maximumKeyLifetimeSeconds))
        }

        /// The wall time of monotonic instant `instant` of this session.
        func wall(_ instant: Instant) -> WallTime { activatedWall.advanced(by: instant - activatedAt) }
    }

    /// `OT_BORDER_AGENT_MAX_EPHEMERAL_KEY_TIMEOUT`: no key lives longer (OpenThread clamps longer lifetimes).
    package static let maximumKeyLifetimeSeconds = 600

    /// A key the agent granted, or one seen on the network (validity 0: unknown): the input that opens a session.
    package struct Grant: Hashable, Sendable {
        var id: EpskcSessionID
        var validSeconds: Int
        /// When the agent's reply arrived.
        var now: Instant
        var wall: WallTime
    }

    /// The telemetry read the machine asked for and awaits: what its reading is for.
    package enum AwaitedReading: Hashable, Sendable {
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
        /// The `_meshcop-e._udp` service appeared with no session open: whether a key is active, and the
        /// baseline of the session `grant` (validity unknown) opens for it.
        case serviceAppeared(Grant)
    }

    /// A command in progress, between its request and the agent's answer.
    package enum Command: Hashable, Sendable {
        case activating(baseline: BorderAgentCounters?)
        case deactivating(retainActiveSession: Bool)
    }

    /// `restore` found another session open on the router.
    package struct OtherSessionOpen: Error, Hashable, Sendable {
        var open: EpskcSessionID
    }
}
