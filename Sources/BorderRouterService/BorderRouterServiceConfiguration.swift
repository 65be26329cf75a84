public import HTTP
public import TBRFoundation
public import RouterFleet
import InternetAccessPolicy
public import MatterCommissioning
import DeviceModel
public import OpenThreadBR

/// How a ``BorderRouterService`` runs: what it knows about each router beyond what otbr-agent says,
/// and its timing.
public struct BorderRouterServiceConfiguration: Sendable {
    /// Per-router facts from tbrd's configuration, by Thread interface name.
    public var routers: [ThreadInterfaceName: RouterConfiguration]
    /// The facts of routers not named in ``routers`` (for example Matter ids set for the whole host).
    public var defaultRouter: RouterConfiguration
    /// How often `TelemetryData` is read while an ePSKc key is active (never while none is), so that an
    /// end the telemetry shows is reported within this interval (the issue asks for 1 s).
    public var epskcPollInterval: Duration
    /// How long after an ePSKc deadline the deadline timer waits for the router's own timeout to show
    /// in telemetry before it concludes the key expired at its deadline.
    public var epskcDeadlineGrace: Duration
    /// How long ordinary agent calls wait for a reply.
    public var agentCallTimeout: Duration
    /// How long `Join`, `AttachAllNodesTo` and `SetThreadEnabled` wait.
    public var agentNetworkTimeout: Duration
    /// How long `leaveNetwork` waits for the agent to come back after `LeaveNetwork`.
    public var leaveTimeout: Duration
    /// How often the internet-access policy is read back from the routers of managed structures (and
    /// from the host firewall) to find drift: someone switching NAT64 or DHCPv6-PD behind tbrd's back.
    public var policyCheckInterval: Duration
    /// The first retry of a failed policy apply comes after this; each further failure doubles it …
    public var policyRetryDelay: Duration
    /// … up to this.
    public var policyRetryLimit: Duration
    /// How long `Nat64State` may take to agree after `SetNat64Enabled`.
    public var policyNat64Timeout: Duration
    /// How long a Matter commissioning session stays open before it ends by itself (default 10 min).
    public var commissioningSessionLifetime: Duration = .seconds(600)
    /// The timeouts of the Matter commissioner's calls.
    public var commissioningTimeouts = CommissioningTimeouts()
    /// How often border routers reached through REST are polled (`rest-poll-interval`, default 5 s).
    public var restPollInterval: Duration = .seconds(5)
    /// How long one REST request may take (`rest-timeout`, default 5 s).
    public var restTimeout: Duration = .seconds(5)
    /// Where the REST API of each otbr-agent on this host's D-Bus is (`agent-rest`): its network
    /// diagnostics show the whole mesh, beyond the agent's own neighbours.
    public var localREST: LocalAgentREST = .automatic

    /// The defaults: 250 ms polls, a 250 ms deadline grace, 25 s calls, 120 s network calls, 30 s leave;
    /// policy read back every 60 s, retried from 1 s doubling to 60 s, NAT64 given 10 s.
    public init(
        routers: [ThreadInterfaceName: RouterConfiguration] = [:], defaultRouter: RouterConfiguration = RouterConfiguration(),
        epskcPollInterval: Duration = .milliseconds(250),
        epskcDeadlineGrace: Duration = .milliseconds(250), agentCallTimeout: Duration = .seconds(25),
        agentNetworkTimeout: Duration = .seconds(120), leaveTimeout: Duration = .seconds(30),
        policyCheckInterval: Duration = .seconds(60), policyRetryDelay: Duration = .seconds(1),
        policyRetryLimit: Duration = .seconds(60), policyNat64Timeout: Duration = .seconds(10)
    ) {
        self.routers = routers
        self.defaultRouter = defaultRouter
        self.epskcPollInterval = epskcPollInterval
        self.epskcDeadlineGrace = epskcDeadlineGrace
        self.agentCallTimeout = agentCallTimeout
        self.agentNetworkTimeout = agentNetworkTimeout
        self.leaveTimeout = leaveTimeout
        self.policyCheckInterval = policyCheckInterval
        self.policyRetryDelay = policyRetryDelay
        self.policyRetryLimit = policyRetryLimit
        self.policyNat64Timeout = policyNat64Timeout
    }

    /// The configuration of the router on `interfaceName` (``defaultRouter`` when none is given).
    public func router(_ interfaceName: ThreadInterfaceName) -> RouterConfiguration {
        routers[interfaceName] ?? defaultRouter
    }

    /// The configuration of router `id`: by its interface name when it is one, else ``defaultRouter``.
    public func router(_ id: DeviceID) -> RouterConfiguration {
        (try? ThreadInterfaceName(id.rawValue)).flatMap { routers[$0] } ?? defaultRouter
    }
}

/// Where the REST API of an otbr-agent on this host's D-Bus is (`agent-rest` in tbrd.conf).
public enum LocalAgentREST: Sendable, Hashable {
    /// None is read: the mesh is the agent's own neighbours and children.
    case off
    /// otbr-agent's own default, `http://127.0.0.1:8081`, for every router: used for the one whose
    /// extended address it answers with, and for no other.
    case automatic
    /// A URL by interface name; a router not named has none.
    case urls([String: HTTPURL])

    /// otbr-agent's default REST address (`--rest-listen-address 127.0.0.1 --rest-listen-port 8081`).
    public static let agentDefault = try! HTTPURL("http://127.0.0.1:8081")

    /// The URL to try for the agent of `interface`.
    public func url(for interface: String) -> HTTPURL? {
        switch self {
        case .off: nil
        case .automatic: Self.agentDefault
        case .urls(let table): table[interface]
        }
    }

    /// `auto`, `off`, or `IF=URL` pairs separated by spaces or commas.
    public init(_ text: String) throws(HTTPURLError) {
        switch text {
        case "auto": self = .automatic
        case "off": self = .off
        default:
            var table: [String: HTTPURL] = [:]
            for pair in text.split(whereSeparator: { $0 == " " || $0 == "," }) {
                guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
                    throw HTTPURLError("'\(pair)' is not INTERFACE=URL")
                }
                table[String(pair[..<equals])] = try HTTPURL(String(pair[pair.index(after: equals)...]))
            }
            guard !table.isEmpty else { throw HTTPURLError("it is auto, off, or INTERFACE=URL pairs") }
            self = .urls(table)
        }
    }
}
