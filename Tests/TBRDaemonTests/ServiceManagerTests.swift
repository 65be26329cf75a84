import DBus
import Foundation
import TBRFoundation
import TBRTestKit
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The service manager's end of sd_notify(3): a datagram socket tbrd is told about in `NOTIFY_SOCKET`,
/// as systemd does for a `Type=notify` unit. Every message received is kept.
final class NotifyListener: Sendable {
    let path: String
    private let received = Locked<[String]>([])
    private let stopped = Locked(false)
    /// Told after each datagram is kept.
    let arrivals = ChangeNotifier()

    init(directory: URL) throws {
        path = directory.appendingPathComponent("notify").path
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw TestKitError("socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { sunPath in
            for (i, byte) in path.utf8.enumerated() { sunPath[i] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0 else {
            Glibc.close(fd)
            throw TestKitError("bind \(path): \(String(cString: strerror(errno)))")
        }
        // A thread of its own, so the test's tasks never block on the socket; it closes the socket when
        // the listener is closed.
        Thread.detachNewThread { [received, stopped, arrivals] in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while !stopped.withLock({ $0 }) {
                var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                guard poll(&ready, 1, 50) > 0 else { continue }
                let n = recv(fd, &buffer, buffer.count, 0)
                if n > 0 {
                    received.withLock { $0.append(String(decoding: buffer[..<n], as: UTF8.self)) }
                    arrivals.changed()
                }
            }
            Glibc.close(fd)
        }
    }

    /// Every datagram received so far, in order.
    var messages: [String] { received.withLock { $0 } }

    func count(_ message: String) -> Int { messages.filter { $0.split(separator: "\n").contains(Substring(message)) }.count }

    func close() { stopped.withLock { $0 = true } }
}

/// tbrd under systemd (`Type=notify`, `WatchdogSec=`): it says READY=1 only once io.tbrd is owned, feeds
/// the watchdog only while it answers itself, and says STOPPING=1 when it stops.
@Suite struct ServiceManagerTests {
    static func startDaemon(_ env: DaemonEnvironment, listener: NotifyListener, watchdogMicroseconds: Int) throws -> TestProcess {
        let daemon = try TestProcess(
            try Executables.product("tbrd"),
            ["--bus", env.address, "--state-dir", env.stateDirectory, "--log-level", "debug"] + (try env.configuration("")),
            directory: env.directory,
            environment: ["NOTIFY_SOCKET": listener.path, "WATCHDOG_USEC": "\(watchdogMicroseconds)"])
        env.daemon = daemon
        return daemon
    }

    @Test func readyOnlyOnceTheNameIsOwnedThenTheWatchdogIsFedAndTheStopAnnounced() async throws {
        try await withDaemon { env throws in
            try await env.startSimulator(["wpan0"])
            let listener = try NotifyListener(directory: env.directory)
            defer { listener.close() }
            let daemon = try Self.startDaemon(env, listener: listener, watchdogMicroseconds: 400_000)
            try await eventually("tbrd says it is ready", wakingOn: listener.arrivals.wakeups, daemon.exitWakeups) {
                guard daemon.isRunning else { throw TestKitError("tbrd exited: \(daemon.stderr)") }
                let ready = listener.count("READY=1") > 0
                // Read after the message: had READY=1 come before the name was taken, this could see it
                // unowned.
                if ready, try await env.client.nameOwner(of: "io.tbrd") == nil {
                    Issue.record("READY=1 arrived while io.tbrd had no owner")
                }
                return ready
            }
            #expect(listener.count("READY=1") == 1)
            try await eventually("the watchdog is fed, again and again", wakingOn: listener.arrivals.wakeups) { listener.count("WATCHDOG=1") >= 3 }

            kill(daemon.pid, SIGTERM)
            #expect(try await daemon.waitForExit() == 0)
            env.daemon = nil
            env.logs.append(daemon.stderr)
            #expect(listener.count("STOPPING=1") == 1)
        }
    }

    @Test func aTbrdThatCannotAnswerItselfStopsFeedingTheWatchdogAndStartsAgainWhenItCan() async throws {
        try await withDaemon { env throws in
            let listener = try NotifyListener(directory: env.directory)
            defer { listener.close() }
            let daemon = try Self.startDaemon(env, listener: listener, watchdogMicroseconds: 400_000)
            try await eventually("tbrd is ready and fed the watchdog", wakingOn: listener.arrivals.wakeups, daemon.exitWakeups) { listener.count("WATCHDOG=1") >= 1 || !daemon.isRunning }
            // The bus stops answering: tbrd's process lives on, but its round through the bus hangs.
            kill(env.bus.pid, SIGSTOP)
            var resumed = false
            defer { if !resumed { kill(env.bus.pid, SIGCONT) } }
            func warnings() -> Int { daemon.stderr.components(separatedBy: "watchdog not fed: tbrd did not answer itself in time").count - 1 }
            try await eventually("tbrd notices it cannot answer itself") { warnings() >= 2 }
            // A WATCHDOG=1 sent before the first failed check has long arrived by the second; none comes
            // while the checks fail.
            let fedBefore = listener.count("WATCHDOG=1")
            let failed = warnings()
            try await eventually("another check fails") { warnings() > failed }
            #expect(listener.count("WATCHDOG=1") == fedBefore, "fed while it could not answer itself")

            kill(env.bus.pid, SIGCONT)
            resumed = true
            try await eventually("fed again once the bus answers", wakingOn: listener.arrivals.wakeups) { listener.count("WATCHDOG=1") > fedBefore }
        }
    }
}
