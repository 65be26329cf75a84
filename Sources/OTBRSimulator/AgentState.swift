import DBus
import OpenThreadBR

/// What survives a restart of the simulated agent: OpenThread's settings file.
struct PersistentState: Sendable {
    var activeDataset: [UInt8]?
    var pendingDataset: [UInt8]?
    /// The stored Border Agent ID; nil after an erase, and a new random one is made at the next start.
    var borderAgentID: [UInt8]?
    var extendedAddress: UInt64
    /// The routing manager's BR ULA prefix (`Settings::BrUlaPrefix`): `fd` and a random 40-bit global
    /// ID; nil after an erase, and a new one is made at the next start.
    var brULAPrefix: [UInt8]?

    init() {
        var rng = SystemRandomNumberGenerator()
        extendedAddress = rng.next()
    }
}

/// The host's "Thread enabled" state (`RcpHost::ThreadEnabledState`), which `Join` needs.
enum ThreadEnabledState: Sendable { case disabled, enabled, disabling }

/// The NAT64 state machine's phase; ``nat64State`` is what `Nat64State` reports.
enum Nat64Phase: Sendable {
    case disabled, notRunning, idle, active

    var state: Nat64State {
        switch self {
        case .disabled: .disabled
        case .notRunning: Nat64State(prefixManager: .notRunning, translator: .notRunning)
        case .idle: Nat64State(prefixManager: .idle, translator: .notRunning)
        case .active: Nat64State(prefixManager: .active, translator: .active)
        }
    }
}

/// An `Attach` or `AttachAllNodesTo` waiting for the node to attach (ThreadHelper's `mAttachHandler`).
struct PendingAttach: Sendable {
    enum Kind: Sendable { case attach, attachAllNodes }
    var waiter: UInt64
    var kind: Kind
    /// The delay `AttachAllNodesTo` reports.
    var delayMs: Int64
    /// For `AttachAllNodesTo` from a node that already had a dataset: what to send once attached.
    var mgmtDataset: [UInt8]?
}

/// What to do when a graceful detach completes (the callbacks of `RcpHost::ThreadDetachGracefully`).
enum AfterDetach: Sendable {
    case disableThread
    case join(dataset: [UInt8], waiter: UInt64)
    case leave(waiter: UInt64)
}

/// What one agent process holds in memory; a restart starts afresh.
struct RuntimeState: Sendable {
    var started: ContinuousClock.Instant
    var borderAgentID: [UInt8]
    var role: DeviceRole = .disabled
    var threadEnabled: ThreadEnabledState = .disabled
    var epskc: EphemeralKeyManager
    var attach: PendingAttach?
    var joinWaiter: UInt64?
    var joinerWaiter: UInt64?
    var setThreadEnabledWaiter: UInt64?
    var afterDetach: [AfterDetach] = []
    var detaching = false
    var nat64Enabled = false
    var nat64Phase: Nat64Phase = .disabled
    var dhcp6Enabled = false
    var lastDhcp6State: Dhcp6PdState = .disabled
    /// Whether OTBR's callback for DHCPv6-PD state changes is registered with this OpenThread
    /// instance: set when the D-Bus object starts, never again after `Reset` (ot-br-posix re-registers
    /// only the role and dataset handlers).
    var dhcp6Signals = true
    var dnsUpstreamEnabled = false
    /// The applied `FeatureFlagListData`, as the agent re-serialized it.
    var featureFlagBytes: [UInt8] = []
    /// When the pending dataset's delay started (its Delay Timer counts down from then).
    var pendingSince: ContinuousClock.Instant?
    var borderAgentEnabled = true
    var linkMode: [Bool] = [true, true, true]
    var radioRegion = "WW"
    var nat64CIDR = "192.168.255.0/24"
    var meshLocalPrefix: [UInt8] = [0xFD, 0xDE, 0xAD, 0x00, 0xBE, 0xEF, 0x00, 0x00]
    var routerID: UInt8 = 0
    var partitionID: UInt32 = 0
    /// The on-mesh prefixes and external routes added over D-Bus (OpenThread's local Network Data).
    var onMeshPrefixes: [OnMeshPrefixEntry] = []
    var externalRoutes: [ExternalRouteEntry] = []
    /// The BR ULA /48 in use (the first 6 bytes), from ``PersistentState/brULAPrefix``.
    var brULAPrefix: [UInt8] = [0xFD, 0, 0, 0, 0, 0]
    /// The leader's Network Data versions, and the Network Data they describe (see
    /// `SimulatedAgent+NetworkData.swift`).
    var networkDataVersion: UInt8 = 0
    var stableNetworkDataVersion: UInt8 = 0
    var publishedNetworkData: [UInt8] = []
    var publishedStableNetworkData: [UInt8] = []
    var vendorTXT: [VendorTXTEntry] = []

    init(started: ContinuousClock.Instant, borderAgentID: [UInt8], epskcEnabled: Bool) {
        self.started = started
        self.borderAgentID = borderAgentID
        epskc = EphemeralKeyManager(enabled: epskcEnabled)
    }
}

/// The simulator's timers, one of each at a time.
enum TimerKey: Hashable, Sendable {
    case attach, gracefulDetach, nat64, epskc, epskcGuard, pendingDataset, joiner, exit, restart
}
