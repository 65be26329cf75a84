public import BorderRouterService
public import DBus
public import TBRFoundation
public import WebSocket

/// Everything tbrd can be told, from `config/tbrd.conf` and the command line (which wins).
public struct DaemonConfiguration: Sendable, Equatable {
    /// The bus to serve on and to find otbr-agents on.
    public var bus: Bus = .system
    /// Where the state database lives (created 0700; the database is 0600).
    public var stateDirectory: String = "/var/lib/tbrd"
    /// The configuration file, if any.
    public var configFile: String?
    /// Records below this level are not logged.
    public var logLevel: LogLevel = .info
    /// The ePSKc journal keeps at most this many events …
    public var journalMaxEvents: Int = 10_000
    /// … and none older than this many days.
    public var journalMaxAgeDays: Int = 90
    /// Matter vendor and product IDs reported in BasicInformation (0 = unknown).
    public var vendorID: UInt16 = 0
    public var productID: UInt16 = 0
    /// BasicInformation vendor and product names, for routers that advertise none (nil: what the router
    /// advertises; otbr-agent has no D-Bus property for them).
    public var vendorName: String?
    public var productName: String?
    /// How long, in seconds, a stop lets the calls in flight finish before the connection closes.
    public var shutdownTimeout: Int = 10
    /// How often, in seconds, the internet-access policy is read back from the routers of managed
    /// structures and from the host firewall (drift is applied away).
    public var policyCheckInterval: Int = 60
    /// How often, in seconds, each border router on another host is polled through its REST API (its
    /// presence, role, network and keys someone else started). Fractions are allowed.
    public var restPollInterval: Double = 5
    /// How long, in seconds, one request to a REST API may take. Fractions are allowed.
    public var restTimeout: Double = 5
    /// Where the REST API of each otbr-agent on this host is (`agent-rest`), for the whole mesh.
    public var agentREST: LocalAgentREST = .automatic
    /// After how many days a network of a structure's directory that none of its routers is on, and that
    /// mDNS has not shown since, is `stale`.
    public var networkStaleAfterDays: Int = 30
    /// Where automatic backups are written (`backup-dir`); nil: none are.
    public var backupDirectory: String?
    /// How many automatic backups are kept (the oldest beyond are removed).
    public var backupKeep: Int = 10
    /// The file holding the automatic backups' passphrase (0600, owned by root or tbrd's user).
    public var backupPassphraseFile: String?
    /// The least time, in seconds, between two automatic backups.
    public var backupInterval: Int = 60
    /// How often, in seconds, every router and the host are checked even when nothing announced a change.
    public var healthInterval: Int = 300
    /// How many days closed problems are kept.
    public var healthRetentionDays: Int = 30
    /// Whether tbrd keeps its host firewall (`table inet tbrd`) for the internet-access policy.
    public var firewall: FirewallMode = .nftables
    /// The `nft` tool: a name looked up on `PATH` (then `/usr/sbin`, `/sbin`) or a path.
    public var nftPath: String = "nft"

    /// Where the HTTPS API listens (`http-listen = ADDR:PORT`); nil: it is off (the default).
    public var httpListen: HTTPListen?
    /// Whether the API speaks TLS: `auto` (plain HTTP on a loopback address, TLS on any other) or `on`.
    public var httpTLS: HTTPTLSMode = .auto

    /// The MQTT broker (`mqtt-url`); nil: MQTT is off (the default).
    public var mqttURL: MQTTBrokerURL?
    /// The user name tbrd gives the broker, and the file holding its password (0600).
    public var mqttUsername: String?
    public var mqttPasswordFile: String?
    /// The CA certificates an `mqtts://` broker's certificate is checked against (nil: the system's).
    public var mqttCAFile: String?
    /// The topic tbrd's topics are under, and Home Assistant's discovery prefix (empty: no discovery).
    public var mqttBaseTopic = "tbrd"
    public var mqttDiscoveryPrefix = "homeassistant"
    /// The client id tbrd connects with (nil: `tbrd-` and the host name).
    public var mqttClientID: String?
    /// Whether requests only an admin token may make over HTTPS are served over MQTT, and ePSKc ones.
    public var mqttAdmin = false
    public var mqttEpskc = false

    /// The Matter commissioner tbrd hands devices to.
    public var matterBackend: MatterBackend = .none
    /// python-matter-server's WebSocket API, for `matter-backend = matter-server`.
    public var matterServerURL = try! WebSocketURL("ws://127.0.0.1:5580/ws")
    /// How long, in seconds, a commissioning session stays open before it ends by itself.
    public var matterSessionTimeout: Int = 600
    /// How long, in seconds, commissioning one device may take.
    public var matterCommissionTimeout: Int = 300
    /// How long, in seconds, any other call to the commissioner may take.
    public var matterCallTimeout: Int = 30

    /// Which Matter commissioner tbrd uses.
    public enum MatterBackend: String, Sendable, Equatable {
        /// None: the commissioning methods answer `io.tbrd.Error.NotSupported`.
        case none
        /// python-matter-server over its WebSocket API (or `matter-sim`, which speaks it, for demos and
        /// tests).
        case matterServer = "matter-server"
    }

    /// Whether tbrd manages a host firewall.
    public enum FirewallMode: String, Sendable, Equatable {
        /// `table inet tbrd` through `nft`.
        case nftables
        /// No host firewall: only NAT64 and DHCPv6-PD on the agents.
        case off
    }

    public init() {}

    /// Applies one `key = value` setting.
    /// - Throws: ``ConfigurationError`` naming the key and what it accepts.
    public mutating func set(_ key: String, _ value: String) throws(ConfigurationError) {
        func integer(_ range: ClosedRange<Int>) throws(ConfigurationError) -> Int {
            guard let n = Int(value), range.contains(n) else {
                throw ConfigurationError("'\(key)' must be a whole number from \(range.lowerBound) to \(range.upperBound), not '\(value)'")
            }
            return n
        }
        func seconds(_ range: ClosedRange<Double>) throws(ConfigurationError) -> Double {
            guard let n = Double(value), n.isFinite, range.contains(n) else {
                throw ConfigurationError("'\(key)' must be a number of seconds from \(range.lowerBound) to \(range.upperBound), not '\(value)'")
            }
            return n
        }
        func text(_ limit: Int, printable: Bool) throws(ConfigurationError) -> String {
            guard value.count <= limit, value.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7F }) else {
                throw ConfigurationError("'\(key)' must be at most \(limit) printable characters without spaces")
            }
            return value
        }
        func name() throws(ConfigurationError) -> String? {
            guard value.count <= 64, value.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F }) else {
                throw ConfigurationError("'\(key)' must be at most 64 printable characters")
            }
            return value.isEmpty ? nil : value
        }
        switch key {
        case "bus": bus = Bus(argument: value)
        case "state-dir":
            guard value.hasPrefix("/") else { throw ConfigurationError("'state-dir' must be an absolute path, not '\(value)'") }
            stateDirectory = value
        case "log-level":
            guard let level = LogLevel(name: value) else {
                throw ConfigurationError("'log-level' must be one of trace, debug, info, notice, warning, error; not '\(value)'")
            }
            logLevel = level
        case "journal-max-events": journalMaxEvents = try integer(1...10_000_000)
        case "journal-max-age-days": journalMaxAgeDays = try integer(1...36_500)
        case "vendor-id": vendorID = UInt16(try integer(0...0xFFFF))
        case "product-id": productID = UInt16(try integer(0...0xFFFF))
        case "vendor-name": vendorName = try name()
        case "product-name": productName = try name()
        case "shutdown-timeout": shutdownTimeout = try integer(0...600)
        case "policy-check-interval": policyCheckInterval = try integer(1...86_400)
        case "rest-poll-interval": restPollInterval = try seconds(0.1...3600)
        case "rest-timeout": restTimeout = try seconds(0.1...120)
        case "agent-rest":
            do { agentREST = try LocalAgentREST(value) } catch { throw ConfigurationError("'agent-rest': \(error.message)") }
        case "network-stale-after": networkStaleAfterDays = try integer(1...36_500)
        case "backup-dir", "backup-passphrase-file":
            guard value.isEmpty || (value.hasPrefix("/") && value.count <= 4096 && !value.contains("\0")) else {
                throw ConfigurationError("'\(key)' must be an absolute path, not '\(value)'")
            }
            if key == "backup-dir" { backupDirectory = value.isEmpty ? nil : value } else { backupPassphraseFile = value.isEmpty ? nil : value }
        case "health-interval": healthInterval = try integer(10...86_400)
        case "health-retention": healthRetentionDays = try integer(1...3650)
        case "backup-keep": backupKeep = try integer(1...10_000)
        case "backup-interval": backupInterval = try integer(1...86_400)
        case "firewall":
            guard let mode = FirewallMode(rawValue: value) else {
                throw ConfigurationError("'firewall' must be nftables or off, not '\(value)'")
            }
            firewall = mode
        case "nft-path":
            guard !value.isEmpty, value.count <= 4096, !value.contains("\0") else {
                throw ConfigurationError("'nft-path' must be a program name or a path")
            }
            nftPath = value
        case "http-listen":
            if value.isEmpty {
                httpListen = nil
            } else {
                do { httpListen = try HTTPListen(value) } catch { throw ConfigurationError("'http-listen': \(error.message)") }
            }
        case "http-tls":
            guard let mode = HTTPTLSMode(rawValue: value) else { throw ConfigurationError("'http-tls' must be auto or on, not '\(value)'") }
            httpTLS = mode
        case "mqtt-url":
            if value.isEmpty {
                mqttURL = nil
            } else {
                do { mqttURL = try MQTTBrokerURL(value) } catch { throw ConfigurationError("'mqtt-url': \(error.message)") }
            }
        case "mqtt-username": mqttUsername = value.isEmpty ? nil : try text(256, printable: true)
        case "mqtt-password-file", "mqtt-ca-file":
            guard value.isEmpty || (value.hasPrefix("/") && value.count <= 4096 && !value.contains("\0")) else {
                throw ConfigurationError("'\(key)' must be an absolute path, not '\(value)'")
            }
            if key == "mqtt-password-file" { mqttPasswordFile = value.isEmpty ? nil : value } else { mqttCAFile = value.isEmpty ? nil : value }
        case "mqtt-base-topic", "mqtt-discovery-prefix":
            guard value.isEmpty ? key == "mqtt-discovery-prefix" : Self.isTopicPrefix(value) else {
                throw ConfigurationError(
                    "'\(key)' must be a topic without + or #, not starting or ending with /, of at most 200 characters"
                        + (key == "mqtt-base-topic" ? "" : " (or empty: no discovery)") + "; not '\(value)'")
            }
            if key == "mqtt-base-topic" { mqttBaseTopic = value } else { mqttDiscoveryPrefix = value }
        case "mqtt-client-id": mqttClientID = value.isEmpty ? nil : try text(128, printable: true)
        case "mqtt-admin", "mqtt-epskc":
            guard value == "yes" || value == "no" else { throw ConfigurationError("'\(key)' must be yes or no, not '\(value)'") }
            if key == "mqtt-admin" { mqttAdmin = value == "yes" } else { mqttEpskc = value == "yes" }
        case "matter-backend":
            if value == "simulated" {
                throw ConfigurationError(
                    "'matter-backend = simulated' is gone: tbrd keeps no simulator; run matter-sim (a simulated python-matter-server) "
                        + "and set matter-backend = matter-server with matter-server-url (docs/matter-sim.md)")
            }
            guard let backend = MatterBackend(rawValue: value) else {
                throw ConfigurationError("'matter-backend' must be none or matter-server, not '\(value)'")
            }
            matterBackend = backend
        case "matter-server-url":
            do { matterServerURL = try WebSocketURL(value) } catch { throw ConfigurationError("'matter-server-url': \(error.description)") }
        case "matter-session-timeout": matterSessionTimeout = try integer(10...86_400)
        case "matter-commission-timeout": matterCommissionTimeout = try integer(1...3600)
        case "matter-call-timeout": matterCallTimeout = try integer(1...600)
        case "matter-simulated-device", "matter-simulated-step-ms":
            throw ConfigurationError(
                "'\(key)' is gone with the simulated commissioner: give matter-sim its devices (matter-sim --device …, docs/matter-sim.md)")
        default:
            throw ConfigurationError("unknown setting '\(key)' (known: \(Self.keys.sorted().joined(separator: ", ")))")
        }
    }

    /// Whether `text` may stand before tbrd's topics: no wildcard, no empty first or last level.
    static func isTopicPrefix(_ text: String) -> Bool {
        !text.isEmpty && text.count <= 200 && !text.hasPrefix("/") && !text.hasSuffix("/")
            && !text.contains(where: { $0 == "+" || $0 == "#" || $0 == "\0" || $0.isWhitespace })
    }

    /// Applies the settings of a configuration file's text.
    /// - Throws: ``ConfigurationError`` with the file and line of the first problem.
    public mutating func apply(fileText: String, path: String) throws(ConfigurationError) {
        for (number, raw) in fileText.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let trimmed = line.trimmingWhitespace
            if trimmed.isEmpty { continue }
            guard let eq = trimmed.firstIndex(of: "=") else {
                throw ConfigurationError("\(path) line \(number + 1): expected 'key = value', found '\(trimmed)'")
            }
            let key = trimmed[..<eq].trimmingWhitespace
            let value = trimmed[trimmed.index(after: eq)...].trimmingWhitespace
            do {
                try set(String(key), String(value))
            } catch {
                throw ConfigurationError("\(path) line \(number + 1): \(error.message)")
            }
        }
    }
}

/// A configuration problem, as one sentence.
public struct ConfigurationError: Error, Equatable, Sendable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

extension StringProtocol {
    var trimmingWhitespace: Substring {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" || f == "\r" { s.removeFirst() }
        while let l = s.last, l == " " || l == "\t" || l == "\r" { s.removeLast() }
        return s
    }
}
