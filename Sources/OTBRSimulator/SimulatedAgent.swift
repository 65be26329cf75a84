import MeshCoP
public import DBus
import HTTPServer
public import MDNS
public import OpenThreadBR
public import TBRFoundation

/// A simulated otbr-agent (RCP mode) for one Thread interface: it exports `io.openthread.BorderRouter`
/// at `/io/openthread/BorderRouter/<if>` under `io.openthread.BorderRouter.<if>`, with the members,
/// signatures, error names and quirks of the real agent (see `docs/otbr-sim.md`), plus the control
/// interface `io.tbrd.Simulator1` at `/io/tbrd/Simulator/<if>` for tests and demos.
///
/// The actor stands for the agent *service*: it survives the agent process's exits. `LeaveNetwork` and
/// the control method `Crash` make the process leave the bus and come back after a delay with a new
/// connection, a `Ready` signal and fresh in-memory state; what OpenThread persists (datasets, Border
/// Agent ID) is kept unless erased. With ``SimulatorConfiguration/restListen`` the process also serves
/// otbr-agent's REST API over the same state (SimulatedAgent+REST.swift); it stops and comes back with
/// the process, on the same port.
///
/// Several agents can share one bus, in one process (one connection each):
/// ```swift
/// var agents: [SimulatedAgent] = []
/// for name: ThreadInterfaceName in ["wpan0", "wpan1"] {
///     let agent = SimulatedAgent(configuration: SimulatorConfiguration(interfaceName: name), bus: .address(address))
///     try await agent.start()
///     agents.append(agent)
/// }
/// ```
public actor SimulatedAgent {
    /// How the agent is built.
    public nonisolated let configuration: SimulatorConfiguration
    /// The bus it connects to.
    public nonisolated let bus: Bus
    let clock: any TBRClock
    let logger: Logger

    var persistent = PersistentState()
    var runtime: RuntimeState
    var capabilities: SimulatedCapabilities
    var vendorName: String
    var productName: String
    /// The simulated Thread nodes around the border router (the outside world: kept across restarts).
    var mesh = SimulatedMesh()
    /// The network (Extended PAN ID) the simulated nodes are on: the agent's when they were added, and
    /// the one they moved to with it (a pending dataset taking effect, a partition adopted). They are its
    /// neighbours only while it is attached to that network (``visibleMesh``).
    var meshNetwork: ExtendedPANID?
    /// What the radio reports (`SetRadioHealth`; kept across restarts).
    var radioHealth = RadioHealth()
    /// The channels the radio supports (`SetSupportedChannelMask`) and the energy an energy scan hears
    /// on each (`SetChannelEnergy`): the outside world, kept across restarts.
    var radioChannels = RadioChannels()

    /// The running process's connection; nil while the agent is off the bus.
    var connection: Connection?
    /// Counts process starts, so that timers of an earlier life do nothing.
    var life: UInt64 = 0
    /// Whether ``stop()`` was called: no more restarts.
    var stopped = true
    var timers: [TimerKey: ScheduledTimer] = [:]
    var nextTimerToken: UInt64 = 0
    /// The D-Bus replies that come later (an attach answered once attached, say), by waiter id.
    let replies = ReplySlots<UInt64, [DBusValue]>()
    var nextWaiterID: UInt64 = 1

    // MARK: mDNS (`--mdns`; see SimulatedAgent+MDNS.swift)
    /// Where the agent publishes its services; nil without `--mdns`.
    let mdns: MDNSClient?
    var published = Advertisement()
    var advertisementStale = false
    var advertising = false
    var meshcopPublication: PublicationID?
    var ephemeralPublication: PublicationID?
    /// The key whose UDP port was chosen, and the port (a new one per activation; see ``epskcPort()``).
    var epskcAdvertisedKey: (generation: UInt64, port: UInt16)?
    /// The ePSKc's DTLS port and its serving thread while a key is active (EpskcTransport.swift).
    var epskcTransport: EpskcTransport?
    /// The Border Agent's DTLS port while it runs.
    let borderAgentPort = UInt16.random(in: 49153...65535)

    // MARK: REST (`--rest`; see SimulatedAgent+REST.swift)
    /// The running process's REST server; nil while the process is down, and without `--rest`.
    var restServer: HTTPServer?
    /// The port the REST server got at its first start; it comes back on this one after a restart.
    var restPort: UInt16?
    /// The REST API's actions, devices and diagnostics (SimulatedAgent+RESTAPI.swift); afresh with
    /// every process.
    var restServices = RESTServices()

    /// An agent built as `configuration`, for `bus`; call ``start()`` to put it on the bus.
    /// - Parameters:
    ///   - clock: where delays come from.
    ///   - logger: where it logs (never keys or datasets).
    ///   - mdns: where it publishes `_meshcop._udp` and `_meshcop-e._udp` (`--mdns`); nil: nowhere.
    public init(
        configuration: SimulatorConfiguration, bus: Bus, clock: any TBRClock = SystemClock(), logger: Logger = .disabled,
        mdns: MDNSClient? = nil
    ) {
        self.mdns = mdns
        self.configuration = configuration
        self.bus = bus
        self.clock = clock
        self.logger = logger
        capabilities = configuration.capabilities
        vendorName = configuration.vendorName
        productName = configuration.productName
        runtime = RuntimeState(started: clock.now(), borderAgentID: [], epskcEnabled: configuration.epskcEnabledAtStart)
        if let dataset = configuration.initialDataset { persistent.activeDataset = dataset.encoded() }
    }

    /// The Thread interface.
    public nonisolated var interfaceName: ThreadInterfaceName { configuration.interfaceName }

    /// Whether the agent process is on the bus now.
    public var isRunning: Bool { connection != nil }

    /// The agent's unique bus name while it runs.
    public var uniqueName: String? { connection?.uniqueName }

    /// The current device role (for tests; clients read `DeviceRole`).
    public var role: DeviceRole { runtime.role }

    /// Puts the agent on the bus: connects, exports its objects, takes its name (replacing an existing
    /// owner, as the real agent does) and sends `Ready`. With an initial dataset it is leader at once.
    /// - Throws: ``DBusError`` when the bus cannot be reached or the name not taken.
    public func start() async throws {
        guard stopped else { return }
        stopped = false
        do {
            try await startProcess(firstStart: true)
        } catch {
            stopped = true
            throw error
        }
    }

    /// Takes the agent off the bus for good: cancels its timers, fails outstanding calls and closes its
    /// connection. Idempotent.
    public func stop() async {
        stopped = true
        await exitProcess()
        cancelTimer(.restart)
        await advertise()
    }

    /// Drops the agent off the bus at once, as a crash would, and brings it back after `restartAfter`.
    public func crash(restartAfter: Duration) async {
        guard !stopped else { return }
        await exitProcess()
        scheduleRestart(after: restartAfter)
    }

    /// The uptime of the running process, in milliseconds (OpenThread's uptime clock).
    var uptimeMs: UInt32 {
        let (s, atto) = (clock.now() - runtime.started).components
        return UInt32(truncatingIfNeeded: s * 1000 + atto / 1_000_000_000_000_000)
    }
}
