public import Foundation
import TBRFoundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A small LAN for mDNS tests: network namespaces joined by a veth pair (192.0.2.0/24, documentation
/// addresses), each a "host" with its own private `dbus-daemon` as its system bus and a real
/// `avahi-daemon` running inside the namespace, with its own `/run` (a private directory bound over
/// `/run` in a mount namespace of its own) and a configuration limited to the veth.
///
/// Programs that use Avahi run anywhere with `DBUS_SYSTEM_BUS_ADDRESS` set to a host's bus
/// (``Host/environment``): only avahi-daemon needs the namespace. Namespace names carry the test
/// process's pid; ``stop()`` (and `deinit`, and the next LAN of a later run, for namespaces whose
/// process is gone) removes everything. Needs root, `ip` (iproute2), `unshare` (util-linux) and
/// `avahi-daemon`: a missing one fails the test, it never skips.
public final class AvahiLAN: Sendable {
    /// One host of the LAN.
    public final class Host: Sendable {
        /// The network namespace.
        public let namespace: String
        /// Its system bus.
        public let bus: PrivateBus
        /// Its IPv4 address on the LAN.
        public let address: String
        /// Its avahi-daemon host name (`<name>.local`).
        public let hostName: String
        let directory: URL
        let avahi = Locked<TestProcess?>(nil)

        init(namespace: String, bus: PrivateBus, address: String, hostName: String, directory: URL) {
            self.namespace = namespace
            self.bus = bus
            self.address = address
            self.hostName = hostName
            self.directory = directory
        }

        /// The environment that makes a program's Avahi client use this host's avahi-daemon.
        public var environment: [String: String] { ["DBUS_SYSTEM_BUS_ADDRESS": bus.address] }

        /// What avahi-daemon has logged so far.
        public var avahiLog: String { avahi.withLock { $0.map { $0.stderr + $0.stdout } ?? "" } }

        /// Starts avahi-daemon and waits until it has registered its host name.
        /// - Throws: ``TestKitError`` when it is missing or does not start within 10 s.
        public func startAvahi() async throws {
            let ip = try Executables.find("ip", package: "iproute2")
            let unshare = try Executables.find("unshare", package: "util-linux")
            let daemon = try Executables.find("avahi-daemon", package: "avahi-daemon")
            let run = directory.appendingPathComponent("run").path
            try FileManager.default.createDirectory(atPath: run + "/avahi-daemon", withIntermediateDirectories: true)
            let script = "mount --bind \"$1\" /run && exec \"$2\" -f \"$3\" --no-drop-root --no-chroot --no-rlimits --no-proc-title"
            let p = try TestProcess(
                ip,
                ["netns", "exec", namespace, unshare, "--mount", "--propagation", "private", "sh", "-c", script, "sh", run, daemon,
                 directory.appendingPathComponent("avahi-daemon.conf").path],
                directory: directory, environment: environment)
            avahi.withLock { $0 = p }
            try await eventually("avahi-daemon in \(namespace) has started", timeout: .seconds(10), wakingOn: p.wakeups) {
                guard p.isRunning else { throw TestKitError("avahi-daemon in \(namespace) exited: \(p.stderr)") }
                return p.stderr.contains("Server startup complete")
            }
        }

        /// Kills avahi-daemon with `signal` (SIGKILL: no goodbye packets) and waits for it to exit.
        public func stopAvahi(signal: Int32 = SIGKILL) async {
            guard let p = avahi.withLock({ $0 }) else { return }
            await p.terminate(signal: signal)
            avahi.withLock { $0 = nil }
        }

        func writeConfiguration() throws {
            let config = """
                [server]
                host-name=\(hostName)
                use-ipv4=yes
                use-ipv6=no
                allow-interfaces=lan0
                enable-dbus=yes
                ratelimit-interval-usec=1000000
                ratelimit-burst=1000
                [wide-area]
                enable-wide-area=no
                [publish]
                publish-hinfo=no
                publish-workstation=no
                [reflector]
                enable-reflector=no
                """
            try config.write(to: directory.appendingPathComponent("avahi-daemon.conf"), atomically: true, encoding: .utf8)
        }
    }

    /// The hosts, in order.
    public let hosts: [Host]
    let directory: URL
    private static let counter = Atomic<Int>(0)

    private init(hosts: [Host], directory: URL) {
        self.hosts = hosts
        self.directory = directory
    }

    /// Builds a LAN of `count` hosts (2 by default) and starts avahi-daemon on each.
    /// - Throws: ``TestKitError`` when a tool is missing or a step fails (what was made is removed).
    public static func start(hosts count: Int = 2) async throws -> AvahiLAN {
        precondition((2...9).contains(count))
        try await removeLeftovers()
        let pid = getpid()
        let n = counter.add(1, ordering: .relaxed).newValue
        let directory = try TemporaryDirectory.make(prefix: "tbrd-lan")
        var hosts: [Host] = []
        let lan: AvahiLAN
        do {
            for i in 0..<count {
                let name = "tbrdlan-\(pid)-\(n)-\(i)"
                try await ip(["netns", "add", name])
                let dir = directory.appendingPathComponent("host\(i)")
                try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
                let bus = try await PrivateBus.start()
                let host = Host(
                    namespace: name, bus: bus, address: "192.0.2.\(i + 1)", hostName: "tbrdtest-\(pid)-\(n)-\(i)", directory: dir)
                hosts.append(host)
                try host.writeConfiguration()
            }
            lan = AvahiLAN(hosts: hosts, directory: directory)
        } catch {
            AvahiLAN(hosts: hosts, directory: directory).removeNamespaces()
            throw error
        }
        do {
            // A bridge-less LAN: host 0 is joined to every other host by a veth pair.
            for (i, host) in hosts.enumerated() where i > 0 {
                try await ip(["link", "add", "lan0", "netns", hosts[0].namespace, "type", "veth", "peer", "name", "lan0", "netns", host.namespace])
                if i > 1 { throw TestKitError("AvahiLAN supports two hosts joined by one veth pair") }
            }
            for host in hosts {
                try await ip(["-n", host.namespace, "link", "set", "lo", "up"])
                try await ip(["-n", host.namespace, "addr", "add", host.address + "/24", "dev", "lan0"])
                try await ip(["-n", host.namespace, "link", "set", "lan0", "up"])
            }
            for host in hosts { try await host.startAvahi() }
        } catch {
            await lan.stop()
            throw error
        }
        return lan
    }

    /// Kills every avahi-daemon, deletes the namespaces (and with them the veth pair), stops the buses
    /// and removes the files. Idempotent.
    public func stop() async {
        for host in hosts { await host.stopAvahi(signal: SIGTERM) }
        removeNamespaces()
        for host in hosts { host.bus.stop() }
        try? FileManager.default.removeItem(at: directory)
    }

    deinit { removeNamespaces() }

    private func removeNamespaces() {
        for host in hosts {
            if let p = host.avahi.withLock({ $0 }), p.isRunning { kill(p.pid, SIGKILL) }
            Self.deleteNamespace(host.namespace)
        }
    }

    private static func deleteNamespace(_ name: String) { NetworkNamespace.delete(name) }

    /// Deletes the namespaces of earlier test runs whose process is gone (a run that was killed).
    private static func removeLeftovers() async throws {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/run/netns")) ?? []
        for name in names where name.hasPrefix("tbrdlan-") {
            let parts = name.split(separator: "-")
            guard parts.count == 4, let pid = Int32(parts[1]), pid != getpid(), kill(pid, 0) != 0 else { continue }
            deleteNamespace(name)
        }
    }

    /// Runs `ip` with `arguments`.
    /// - Throws: ``TestKitError`` with its error output when it fails (for example without root).
    static func ip(_ arguments: [String]) async throws {
        let result = try await ProcessRunner.run(try Executables.find("ip", package: "iproute2"), arguments, timeout: .seconds(10))
        guard result.status == 0 else {
            throw TestKitError("ip \(arguments.joined(separator: " ")) failed (status \(result.status)): \(result.stderr)")
        }
    }
}

/// Runs `body` with a fresh two-host ``AvahiLAN``, removed afterwards whatever happens.
public func withAvahiLAN<R>(_ body: (AvahiLAN) async throws -> R) async throws -> R {
    let lan = try await AvahiLAN.start()
    do {
        let result = try await body(lan)
        await lan.stop()
        return result
    } catch {
        await lan.stop()
        throw error
    }
}
