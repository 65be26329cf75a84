import Foundation
import TBRTestKit
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A real Mosquitto (Debian's `mosquitto`) on a free loopback port, with a password file and an ACL file
/// of the test's own, and real clients (`mosquitto_sub`, `mosquitto_pub`) to watch and talk to it.
final class MosquittoBroker: @unchecked Sendable {
    // @unchecked: `process` is replaced only by the test's own task (restart).
    let directory: URL
    let name: String
    let port: Int
    var process: TestProcess
    /// What mosquitto_sub and mosquitto_pub need to speak TLS to it (`--cafile`), when its listener does.
    let clientTLS: [String]

    /// The users every broker of the tests knows: tbrd's own (whose ACL keeps it to its topics) and a
    /// home controller's, who may read and write everything.
    static let users = [("tbrd", "tbrd-broker-password"), ("controller", "controller-password")]
    static let acl = """
        user tbrd
        topic readwrite tbrd/#
        topic readwrite homeassistant/#
        topic write replies/#
        user controller
        topic readwrite #
        """

    /// Starts a broker named `name` in `directory` (`extra` joins its configuration: a bridge, persistence).
    init(in directory: URL, name: String, extra: String = "", clientTLS: [String] = []) async throws {
        self.directory = directory.appendingPathComponent(name)
        self.clientTLS = clientTLS
        self.name = name
        try FileManager.default.createDirectory(at: self.directory, withIntermediateDirectories: true)
        let passwords = self.directory.appendingPathComponent("passwords")
        let tool = try Executables.find("mosquitto_passwd", package: "mosquitto")
        for (i, (user, password)) in Self.users.enumerated() {
            let made = try await ProcessRunner.run(tool, (i == 0 ? ["-c"] : []) + ["-b", passwords.path, user, password])
            guard made.status == 0 else { throw TestKitError("mosquitto_passwd: \(made.stderr)") }
        }
        try Self.acl.write(to: self.directory.appendingPathComponent("acl"), atomically: true, encoding: .utf8)
        var found: (Int, TestProcess)?
        var failure = ""
        // A port free a moment ago may be taken by the time the broker binds it: another one then.
        for _ in 0..<5 {
            let port = try Self.freePort()
            try """
                listener \(port) 127.0.0.1
                user \(String(cString: getpwuid(geteuid()).pointee.pw_name))
                allow_anonymous false
                password_file \(passwords.path)
                acl_file \(self.directory.appendingPathComponent("acl").path)
                log_dest stderr
                log_type error
                log_type warning
                log_type notice
                log_type information
                \(extra)
                """.write(to: self.directory.appendingPathComponent("mosquitto.conf"), atomically: true, encoding: .utf8)
            let process = try await Self.launch(self.directory)
            if process.isRunning {
                found = (port, process)
                break
            }
            failure = process.stderr
        }
        guard let found else { throw TestKitError("mosquitto did not start: \(failure)") }
        (port, process) = found
    }

    private static func launch(_ directory: URL) async throws -> TestProcess {
        let p = try TestProcess(
            try Executables.find("mosquitto", package: "mosquitto"), ["-c", directory.appendingPathComponent("mosquitto.conf").path], directory: directory)
        try await eventually("mosquitto runs", wakingOn: p.wakeups) { p.stderr.contains(" running") || !p.isRunning }
        return p
    }

    /// Stops the broker (SIGTERM: a persistent one saves its sessions).
    func stop() async { _ = await process.terminate() }

    /// Starts it again on the same port, with the same files.
    func restart() async throws {
        process = try await Self.launch(directory)
        guard process.isRunning else { throw TestKitError("mosquitto did not start again: \(process.stderr)") }
    }

    /// A port no one listens on now.
    static func freePort() throws -> Int {
        let (fd, port) = try loopbackSocket(type: Int32(SOCK_STREAM.rawValue))
        close(fd)
        return Int(port)
    }

    /// `mosquitto_sub` as the home controller on `filters`, printing each message as retained flag, topic
    /// and payload; waits until it is subscribed (a marker of its own comes back).
    /// (`payloadFormat`: mosquitto_sub's format of the payload field, `%p`; `%D %p` puts an MQTT 5
    /// correlation data before it, with `-V mqttv5` in `extra`.)
    func subscribe(_ filters: [String], extra: [String] = [], payloadFormat: String = "%p") async throws -> Subscription {
        let tool = try Executables.find("mosquitto_sub", package: "mosquitto-clients")
        let marker = "test/ready/\(UUID().uuidString)"
        var arguments = ["-h", "127.0.0.1", "-p", "\(port)", "-u", "controller", "-P", "controller-password", "-F", "%r\\t%t\\t" + payloadFormat, "-t", marker] + clientTLS
        for filter in filters { arguments += ["-t", filter] }
        let p = try TestProcess(tool, arguments + extra, directory: directory)
        let subscription = Subscription(process: p)
        // Polled: a marker sent before the subscription took effect is lost and wakes nothing.
        try await eventually("mosquitto_sub is subscribed", timeout: .seconds(20)) {
            try await publish(marker, "ready")
            return subscription.messages.contains { $0.topic == marker } || !p.isRunning
        }
        guard p.isRunning else { throw TestKitError("mosquitto_sub: \(p.stderr)") }
        return subscription
    }

    /// `mosquitto_pub` as the home controller.
    func publish(_ topic: String, _ message: String, extra: [String] = []) async throws {
        let tool = try Executables.find("mosquitto_pub", package: "mosquitto-clients")
        let r = try await ProcessRunner.run(
            tool, ["-h", "127.0.0.1", "-p", "\(port)", "-u", "controller", "-P", "controller-password", "-t", topic, "-m", message] + clientTLS + extra)
        guard r.status == 0 else { throw TestKitError("mosquitto_pub \(topic): \(r.stderr)") }
    }

    /// A running `mosquitto_sub` and what it received.
    struct Subscription: Sendable {
        let process: TestProcess

        struct Message: Sendable {
            var retained: Bool
            var topic: String
            var payload: String
            /// The payload as JSON, when it is.
            var json: [String: Any]? { (try? JSONSerialization.jsonObject(with: Data(payload.utf8))) as? [String: Any] }
        }

        /// Every message so far, in order.
        var messages: [Message] {
            process.stdout.split(separator: "\n", omittingEmptySubsequences: true).compactMap { line in
                let parts = line.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false)
                guard parts.count == 3 else { return nil }
                return Message(retained: parts[0] == "1", topic: String(parts[1]), payload: String(parts[2]))
            }
        }

        /// The last message on `topic`.
        func last(_ topic: String) -> Message? { messages.last { $0.topic == topic } }

        /// Waits until a message satisfies `condition`, and returns it.
        @discardableResult
        func waitFor(_ what: String, timeout: Duration = .seconds(20), _ condition: @escaping (Message) -> Bool) async throws -> Message {
            var found: Message?
            try await eventually(what, timeout: timeout, wakingOn: process.wakeups) {
                found = messages.first(where: condition)
                return found != nil
            }
            return found!
        }

        func stop() async { _ = await process.terminate() }
    }
}
