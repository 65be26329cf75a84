import DBus
import MeshCoP
import OpenThreadBR
import TBRCommandLine

/// `otbr-sim`: the command line, declared once; help is generated from it.
struct SimulatorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "otbr-sim",
        abstract: "A simulated otbr-agent: io.openthread.BorderRouter.<if> on a D-Bus bus, without radio hardware.",
        discussion: """
            Exports io.openthread.BorderRouter at /io/openthread/BorderRouter/<if> with the members, signatures, \
            error names and quirks of ot-br-posix's agent in RCP mode, and the control interface \
            io.tbrd.Simulator1 at /io/tbrd/Simulator/<if>. Prints "ready <bus name>" on standard output when \
            each agent is on the bus, and runs until SIGTERM or SIGINT. See docs/otbr-sim.md.

            With --mdns it also publishes its Border Agent services through avahi-daemon on the system bus \
            (DBUS_SYSTEM_BUS_ADDRESS), waiting for avahi-daemon if it is not running.

            With --rest the Nth --interface's agent also serves otbr-agent's REST API (plain HTTP, no \
            authentication, as the real agent) over the same state, and prints "rest <if> http://ADDR:PORT" \
            after its ready line. The server stops and comes back on the same port with the agent's process \
            (LeaveNetwork, Crash).

            Exit status: 0 stopped by a signal, 64 usage error, 69 the bus could not be reached or a --rest \
            address could not be served.
            """,
        version: OTBRSimulatorMain.version,
        manual: ManualInfo(section: "1", seeAlso: ["tbrd(8)", "tbrctl(1)", "matter-sim(1)"]))

    static let arguments: [ArgumentSpec] = [
        .option("bus", valueName: "system|session|ADDRESS", help: "The bus to join.", default: "system"),
        .option(
            "interface", valueName: "NAME", help: "Thread interface to simulate; repeat for several agents.",
            default: "wpan0", repeatable: true),
        .option("dataset", valueName: "HEX", help: "Start as leader of the network of this complete active dataset."),
        .flag("no-epskc", help: "Build without ePSKc: its methods answer UnknownMethod, EphemeralKeyEnabled NotFound."),
        .flag("epskc-disabled", help: "Start with the ePSKc feature off (EphemeralKeyEnabled false)."),
        .flag("no-telemetry", help: "Build without the telemetry API: TelemetryData answers NotImplemented."),
        .flag("no-nat64", help: "Build without NAT64: SetNat64Enabled and Nat64* answer NotImplemented."),
        .flag("dhcp6-pd", help: "Build with DHCPv6 prefix delegation: Capabilities 08 01 10 01, Dhcp6PdState signalled."),
        .flag(
            "no-feature-flags",
            help: "Build without feature flags: NAT64, PD and DNS upstream start on; FeatureFlagListData NotImplemented."),
        .flag("no-dns-upstream", help: "Build without DNS upstream queries: DnsUpstreamQueryState answers NotImplemented."),
        .option("infra-interface", valueName: "NAME", help: "The infrastructure interface InfraLinkInfo names.", default: "eth0"),
        .option("vendor", valueName: "NAME", help: "Vendor name (vn).", default: "OpenThread"),
        .option("product", valueName: "NAME", help: "Product name (mn).", default: "BorderRouter"),
        .option("role-delay", valueName: "MS", help: "Milliseconds from detached to leader.", default: "2000"),
        .option("detach-delay", valueName: "MS", help: "Milliseconds a graceful detach takes.", default: "1000"),
        .option(
            "restart-delay", valueName: "MS", help: "Milliseconds before the agent restarts after LeaveNetwork.",
            default: "5000"),
        .option("nat64-delay", valueName: "MS", help: "Milliseconds until NAT64 is active on a leader.", default: "5000"),
        .option(
            "pending-delay", valueName: "MS",
            help: "Milliseconds until a pending dataset (Delay Timer 300000) becomes active.", default: "300000"),
        .option(
            "disconnect-guard", valueName: "MS",
            help: "Milliseconds a used key stays connected after its commissioner leaves, then stops.", default: "2000"),
        .option(
            "epskc-retry-hold", valueName: "MS",
            help: "Milliseconds the ePSKc's DTLS port hears nothing after a failed handshake (the real agent's ~2 s).",
            default: "2000"),
        .option(
            "diag-delay", valueName: "MS",
            help: "Milliseconds the simulated mesh takes to answer a REST network diagnostic or discovery task.", default: "200"),
        .option(
            "rest", valueName: "[ADDR]:PORT",
            help: "Serve the REST API of the Nth --interface here (ADDR 127.0.0.1; IPv6 as [::1]:8081; port 0: a free one).",
            repeatable: true),
        .flag(
            "mdns",
            help: "Publish _meshcop._udp (and _meshcop-e._udp while a key is active) through avahi-daemon on the system bus."),
        .flag("verbose", help: "Log at debug level on standard error."),
    ]

    let bus: Bus
    let configurations: [SimulatorConfiguration]
    let verbose: Bool

    init(_ values: ParsedValues) throws(UsageError) {
        bus = Bus(argument: values.string("bus") ?? "system")
        let words = values.strings("interface")
        var names: [ThreadInterfaceName] = []
        for word in words.isEmpty ? ["wpan0"] : words {
            let name: ThreadInterfaceName
            do throws(ThreadInterfaceName.InvalidName) {
                name = try ThreadInterfaceName(word)
            } catch {
                throw UsageError(
                    "invalid value '\(word)' for '--interface': \(error.reason) (1–15 letters, digits or '_', not starting with a digit)")
            }
            guard !names.contains(name) else { throw UsageError("interface '\(word)' is given more than once") }
            names.append(name)
        }
        let dataset = try values.value("dataset") { (text) throws(ArgumentValueError) -> OperationalDataset in
            let decoded: OperationalDataset
            do throws(DatasetDecodingError) {
                decoded = try OperationalDataset(hex: text)
            } catch {
                throw ArgumentValueError(error.description)
            }
            if let problem = decoded.validate(as: .active).first {
                throw ArgumentValueError("not a complete active dataset: \(problem)")
            }
            return decoded
        }
        let restWords = values.strings("rest")
        guard restWords.count <= names.count else {
            throw UsageError(
                "'--rest' is given \(restWords.count) times for \(names.count) interface(s); the Nth '--rest' serves the Nth '--interface'")
        }
        let rest = try restWords.map { (word) throws(UsageError) -> RESTListenAddress in
            guard let address = RESTListenAddress(argument: word) else {
                throw UsageError(
                    "invalid value '\(word)' for '--rest': expected [ADDR]:PORT (a numeric IPv4 address, or IPv6 in brackets; port 0–65535)")
            }
            return address
        }
        let delayNames = [
            "role-delay", "detach-delay", "restart-delay", "nat64-delay", "pending-delay", "disconnect-guard", "diag-delay", "epskc-retry-hold",
        ]
        let delays = try delayNames.map { (name) throws(UsageError) in
            Duration.milliseconds(Int64(try values.required(name, as: UInt32.self)))
        }
        var built: [SimulatorConfiguration] = []
        for (index, name) in names.enumerated() {
            var c = SimulatorConfiguration(interfaceName: name)
            c.restListen = index < rest.count ? rest[index] : nil
            c.initialDataset = dataset
            c.epskcBuiltIn = !values.flag("no-epskc")
            c.epskcEnabledAtStart = !values.flag("epskc-disabled")
            c.telemetryBuiltIn = !values.flag("no-telemetry")
            c.capabilities = SimulatedCapabilities(nat64: !values.flag("no-nat64"), dhcp6PD: values.flag("dhcp6-pd"))
            c.featureFlagsBuiltIn = !values.flag("no-feature-flags")
            c.dnsUpstreamBuiltIn = !values.flag("no-dns-upstream")
            c.infraInterfaceName = values.string("infra-interface") ?? c.infraInterfaceName
            c.vendorName = values.string("vendor") ?? c.vendorName
            c.productName = values.string("product") ?? c.productName
            (c.roleDelay, c.detachDelay, c.restartDelay, c.nat64Delay) = (delays[0], delays[1], delays[2], delays[3])
            (c.pendingDelay, c.disconnectGuard, c.diagnosticDelay) = (delays[4], delays[5], delays[6])
            c.epskcRetryHold = delays[7]
            c.mdns = values.flag("mdns")
            built.append(c)
        }
        configurations = built
        verbose = values.flag("verbose")
    }
}
