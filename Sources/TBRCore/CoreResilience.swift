public import TBRDocuments

// Keeping the home's Thread network and bringing it back (issue 48): backups, their restore, and routers
// of a structure that come back with no network.

/// Backups of the home's Thread side.
public protocol BackupCore: Sendable {
    /// Everything a restore needs, with each router's Active dataset read now, sealed with `passphrase`:
    /// the backup file's bytes.
    func createBackup(passphrase: [UInt8]) async throws -> [UInt8]
    /// Puts backup `file` in place of tbrd's state: onto a tbrd with none, or with `replace` (the state
    /// it had is written as a backup first). `dryRun`: every check, nothing changed.
    func restoreBackup(_ file: [UInt8], passphrase: [UInt8], replace: Bool, dryRun: Bool) async throws -> RestoreOutcome
}

/// What a restore did.
public struct RestoreOutcome: Sendable, Hashable, Encodable {
    /// Whether it changed anything (false for a dry run).
    public var restored: Bool
    /// Whether tbrd had a state that was replaced.
    public var replaced: Bool
    /// Where that state was written as a backup first (nil: there was none).
    public var previousStateBackup: String?
    /// What recovery found on the restored structures' routers present now.
    public var recovery: [RecoveryReport]

    public init(restored: Bool, replaced: Bool, previousStateBackup: String?, recovery: [RecoveryReport]) {
        self.restored = restored
        self.replaced = replaced
        self.previousStateBackup = previousStateBackup
        self.recovery = recovery
    }
}

/// Routers of a structure that come back with no network, or are on another one.
public protocol RecoveryCore: Sendable {
    /// Sets what tbrd does when a router of structure `name` comes back empty: `off`, `ask` or `auto`.
    func setRecovery(of name: String, mode: String) async throws -> String
    /// The structure's recovery mode.
    func recovery(of name: String) async throws -> String
    /// Checks every router of structure `name` (or only `router`) now, and joins each empty one to the
    /// structure's preferred network, whatever the mode (what `ask` offers as one command).
    func recover(_ name: String, router: String?) async throws -> [RecoveryReport]
    /// What recovery last found on each router of a structure, sorted by router.
    func recoveryReports() async -> [RecoveryReport]
}

/// What recovery found on a router of a structure, and what it did.
public struct RecoveryReport: Sendable, Hashable, Encodable {
    /// What the router is.
    public enum State: String, Sendable, Hashable, Encodable {
        /// On the structure's preferred network.
        case ok
        /// No Active dataset: reset, reflashed, a new radio, or wiped.
        case empty
        /// Joined back to the preferred network by tbrd.
        case rejoined
        /// tbrd tried to join it back and could not (`detail` says why).
        case failed
        /// On another network than the preferred one (never moved automatically).
        case diverged
    }
    public var structure: String
    public var router: String
    public var state: State
    /// The structure's recovery mode when it was found.
    public var recovery: String
    /// The preferred network's Extended PAN ID.
    public var network: String
    /// The network the router is on (diverged), or nil.
    public var routerNetwork: String?
    /// One sentence; for `empty` and `diverged` it ends with the command that mends it.
    public var detail: String
    public var time: String

    public init(
        structure: String, router: String, state: State, recovery: String, network: String, routerNetwork: String?, detail: String, time: String
    ) {
        self.structure = structure
        self.router = router
        self.state = state
        self.recovery = recovery
        self.network = network
        self.routerNetwork = routerNetwork
        self.detail = detail
        self.time = time
    }
}

/// What tbrd watches all the time (issue 49): problems its checks found, opened and closed.
public protocol HealthCore: Sendable {
    /// The open problems, worst first (`fail`-class checks are all problems; by when they opened).
    func problems() async throws -> [HealthProblem]
    /// The problems open at some moment in the last `seconds` (all: nil), of `router` only when given
    /// (`host` for the host's own), oldest first.
    func problemHistory(seconds: Double?, router: String?) async throws -> [HealthProblem]
    /// The samples taken in the last `seconds` (all: nil) about `router` only when given, oldest first:
    /// what changed about each router (role, partition, router and child counts) and Matter node
    /// (availability).
    func samples(seconds: Double?, router: String?) async throws -> [HealthSample]
    /// What the monitoring people already run scrapes: each router's role, partition, counts, neighbours'
    /// link quality and NAT64 state as last read, open problems by check, ePSKc sessions by how they
    /// ended, and tbrd's own memory and calls served. Read from what tbrd keeps: no router is asked.
    func metrics() async throws -> [MetricFamily]
    /// What tbrd last read of `router`'s mesh (role, partition, router and child counts), from what it
    /// keeps: the router is not asked. Throws `notFound` for a router tbrd does not know.
    func reading(of router: String) async throws -> RouterReading
}

/// A problem opened or closed, as the core tells every adapter.
public struct ProblemChange: Sendable, Hashable {
    /// Whether it opened (else it closed).
    public var opened: Bool
    public var problem: HealthProblem

    public init(opened: Bool, problem: HealthProblem) {
        self.opened = opened
        self.problem = problem
    }
}
