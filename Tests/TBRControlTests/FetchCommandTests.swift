import DBus
import Foundation
import MeshCoP
import OpenThreadBR
import TBRFoundation
import TBRTestKit
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `tbrctl network fetch`: the built tbrctl (and tbrd) as an ePSKc commissioner against otbr-sim's real
/// DTLS EC-JPAKE border agent on loopback, every outcome with its exit status, and the key seen used on
/// the serving side.
@Suite struct FetchCommandTests {
    /// Activates a key on `interface` and returns it with its DTLS port.
    static func activate(_ rig: Rig, _ interface: ThreadInterfaceName = "wpan0") async throws -> (key: String, port: UInt16) {
        let key = try await BorderRouterAgent(connection: rig.connection, interfaceName: interface).activateEphemeralKeyMode()
        rig.usedKeys.keys.withLock { $0.append(key.digits) }
        var port: UInt16 = 0
        try await eventually("the key's DTLS port is open", timeout: .seconds(10)) {
            port = try await keyState(rig, interface).port
            return port != 0
        }
        return (key.digits, port)
    }

    static func keyState(_ rig: Rig, _ interface: ThreadInterfaceName = "wpan0") async throws -> (state: String, port: UInt16) {
        let reply = try await rig.control(interface, "EphemeralKeyTransport")
        guard reply.count == 2, case .string(let state) = reply[0], case .uint16(let port) = reply[1] else {
            throw TestFailure("EphemeralKeyTransport answered \(reply)")
        }
        return (state, port)
    }

    /// A valid key (Verhoeff) that is not `key`.
    static func otherKey(than key: String) throws -> String {
        var other: String
        repeat { other = try EphemeralKey.generate().digits } while other == key
        return other
    }

    static let fastEpskc = ["--dataset", Vectors.datasetA, "--epskc-retry-hold", "50"]

    @Test func aFetchReadsTheWholeDatasetAndUsesTheKey() async throws {
        try await withRig(simulatorArguments: Self.fastEpskc) { rig throws in
            let (key, port) = try await Self.activate(rig)
            let directory = rig.bus.directory
            let file = directory.appendingPathComponent("fetched.hex").path
            let (result, json) = try await rig.json(
                ["--json", "network", "fetch", "--key", key, "--from", "127.0.0.1:\(port)", "--reveal-secrets", "--output", file])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(json["networkName"] as? String == "OpenThreadDemo" && json["extPanId"] as? String == "1111111122222222")
            #expect(json["networkKey"] as? String == Vectors.networkKeyA && json["pskc"] as? String == Vectors.pskcA)
            let source = try #require(json["source"] as? [String: Any])
            #expect(source["address"] as? String == "127.0.0.1:\(port)")
            // The hex file: the dataset exactly as the agent keeps it, mode 0600.
            let written = try String(contentsOfFile: file, encoding: .utf8)
            #expect(written == Vectors.datasetA + "\n")
            var info = stat()
            #expect(stat(file, &info) == 0 && info.st_mode & 0o777 == 0o600)
            // The key was used once: connected, then stopped after the disconnect guard.
            try await eventually("the key stops after its use", timeout: .seconds(10)) { try await Self.keyState(rig).state == "stopped" }
            // A second fetch finds nothing listening, and leaves no file behind.
            let other = directory.appendingPathComponent("again.hex").path
            let again = try await rig.run(["network", "fetch", "--key", key, "--from", "127.0.0.1:\(port)", "--output", other])
            #expect(again.status == 69, "\(again.stderr)")
            #expect(again.stderr.contains("no ePSKc active"))
            #expect(!FileManager.default.fileExists(atPath: other), "a failed fetch writes no file")
        }
    }

    @Test func textIsRedactedAndAnExistingOutputFileIsKept() async throws {
        try await withRig(simulatorArguments: Self.fastEpskc) { rig throws in
            let file = rig.bus.directory.appendingPathComponent("existing.hex").path
            try "keep me\n".write(toFile: file, atomically: false, encoding: .utf8)
            let (key, port) = try await Self.activate(rig)
            let refused = try await rig.run(["network", "fetch", "--key", key, "--from", "127.0.0.1:\(port)", "--output", file])
            #expect(refused.status == 1 && refused.stderr.contains("never overwritten"), "\(refused.stderr)")
            #expect(try await Self.keyState(rig).state == "started", "a taken file name costs the key nothing")
            #expect(try String(contentsOfFile: file, encoding: .utf8) == "keep me\n")
            let text = try await rig.run(["network", "fetch", "--key", key, "--from", "127.0.0.1:\(port)"])
            #expect(text.status == 0, "\(text.stderr)")
            #expect(text.stdout.contains("Network Name       OpenThreadDemo\n") && text.stdout.contains("Network Key        <redacted>\n"))
            #expect(!text.stdout.contains(Vectors.networkKeyA) && !text.stdout.contains(Vectors.pskcA))
        }
    }

    @Test func aWrongKeyExits77AndTheTenthFailureStopsTheKey() async throws {
        try await withRig(simulatorArguments: Self.fastEpskc) { rig throws in
            let (key, port) = try await Self.activate(rig)
            let wrong = try Self.otherKey(than: key)
            for attempt in 1...9 {
                let result = try await rig.run(["network", "fetch", "--key", wrong, "--from", "127.0.0.1:\(port)", "--timeout", "20"])
                #expect(result.status == 77, "attempt \(attempt): \(result.stderr)")
                #expect(result.stderr.contains("ends its key after 10 failed tries"))
                #expect(try await Self.keyState(rig).state == "started", "the key survives \(attempt) failures")
            }
            let tenth = try await rig.run(["network", "fetch", "--key", wrong, "--from", "127.0.0.1:\(port)", "--timeout", "20"])
            #expect(tenth.status == 77, "\(tenth.stderr)")
            try await eventually("the 10th failure stops the key", timeout: .seconds(10)) { try await Self.keyState(rig).state == "stopped" }
            let eleventh = try await rig.run(["network", "fetch", "--key", key, "--from", "127.0.0.1:\(port)"])
            #expect(eleventh.status == 69, "\(eleventh.stderr)")
        }
    }

    @Test func badKeysAndAnIncompleteDatasetAreDataErrors() async throws {
        try await withRig(simulatorArguments: Self.fastEpskc) { rig throws in
            let typo = try await rig.run(["network", "fetch", "--key", "123456780", "--from", "127.0.0.1:9"])
            #expect(typo.status == 65 && typo.stderr.contains("nothing was sent"), "\(typo.stderr)")
            let short = try await rig.run(["network", "fetch", "--key", "1234", "--from", "127.0.0.1:9"])
            #expect(short.status == 65, "\(short.stderr)")
            let missing = try await rig.run(["network", "fetch"])
            #expect(missing.status == 64 && missing.stderr.contains("--key"), "\(missing.stderr)")

            // The agent keeps a partial Active dataset (as a real one accepts it): the answer is refused.
            let agent = BorderRouterAgent(connection: rig.connection, interfaceName: "wpan0")
            try await agent.setActiveDatasetTLVs(try Hex.decode("0e08000000000001000001021234"))
            let (key, port) = try await Self.activate(rig)
            let partial = try await rig.run(["network", "fetch", "--key", key, "--from", "127.0.0.1:\(port)"])
            #expect(partial.status == 65, "\(partial.stderr)")
            #expect(partial.stderr.contains("not complete") && partial.stderr.contains("Network Key"), "\(partial.stderr)")
        }
    }

    @Test func silenceAndGarbageEndAtTheTimeout() async throws {
        try await withRig([]) { rig throws in
            // A UDP port that answers every datagram with garbage, and one that never answers.
            let garbage = try HostileUDPPeer(answer: { datagram in [UInt8](repeating: 0x17, count: 3) + datagram.prefix(40) })
            let silent = try HostileUDPPeer(answer: { _ in nil })
            defer {
                garbage.stop()
                silent.stop()
            }
            let key = try EphemeralKey.generate().digits
            for port in [garbage.port, silent.port] {
                let start = ContinuousClock.now
                let result = try await rig.run(["network", "fetch", "--key", key, "--from", "127.0.0.1:\(port)", "--timeout", "2"])
                #expect(result.status == 69 && result.stderr.contains("no answer"), "\(result.stderr)")
                #expect(ContinuousClock.now - start < .seconds(15), "the wait is bounded by --timeout")
            }
            #expect(garbage.received.withLock { $0 } >= 2, "the handshake was retransmitted")
        }
    }

    @Test func throughTbrdWithTheSameStatuses() async throws {
        // --structure goes through tbrd (Manager1.FetchNetworkCredentials): its errors map to the same statuses.
        try await withRig(simulatorArguments: Self.fastEpskc, withTbrd: true) { rig throws in
            #expect(try await rig.run(["structure", "create", "Home"]).status == 0)
            let (key, port) = try await Self.activate(rig)
            let fetch = ["network", "fetch", "--from", "127.0.0.1:\(port)", "--structure", "Home"]
            let typo = try await rig.run(fetch + ["--key", "123456780"])
            #expect(typo.status == 65 && typo.stderr.contains("nothing was sent"), "\(typo.stderr)")
            let wrong = try await rig.run(fetch + ["--key", try Self.otherKey(than: key)])
            #expect(wrong.status == 77 && wrong.stderr.contains("10 failed tries"), "\(wrong.stderr)")
            let (fetched, json) = try await rig.json(["--json"] + fetch + ["--key", key, "--reveal-secrets"])
            #expect(fetched.status == 0 && fetched.stderr == "", "\(fetched.stderr)")
            #expect(json["networkKey"] as? String == Secrets.redacted, "--structure prints no secret, even with --reveal-secrets")
            #expect(json["networkName"] as? String == "OpenThreadDemo" && json["structure"] as? String == "Home")
            try await eventually("the key stops after its use", timeout: .seconds(10)) { try await Self.keyState(rig).state == "stopped" }
            let gone = try await rig.run(fetch + ["--key", key])
            #expect(gone.status == 69, "\(gone.stderr)")
            let silent = try HostileUDPPeer(answer: { _ in nil })
            defer { silent.stop() }
            let quiet = try await rig.run(
                ["network", "fetch", "--from", "127.0.0.1:\(silent.port)", "--structure", "Home", "--key", key, "--timeout", "1"])
            #expect(quiet.status == 69 && quiet.stderr.contains("no answer"), "\(quiet.stderr)")
        }
    }
}

/// A UDP socket on loopback that answers each datagram with what `answer` returns (nil: nothing), on a
/// thread of its own, until stopped: a hostile or dead DTLS peer.
final class HostileUDPPeer: Sendable {
    let port: UInt16
    let received = Mutex(0)
    private let fd: Int32
    private let stopped = Mutex(false)

    init(answer: @escaping @Sendable ([UInt8]) -> [UInt8]?) throws {
        let (socketFD, port) = try loopbackSocket(type: Int32(SOCK_DGRAM.rawValue))
        fd = socketFD
        self.port = port
        var timeout = timeval(tv_sec: 0, tv_usec: 100_000)
        setsockopt(socketFD, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let fd = socketFD
        Thread.detachNewThread { [self] in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while !stopped.withLock({ $0 }) {
                var peer = sockaddr_storage()
                var peerLength = socklen_t(MemoryLayout<sockaddr_storage>.size)
                let n = withUnsafeMutablePointer(to: &peer) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { recvfrom(fd, &buffer, buffer.count, 0, $0, &peerLength) }
                }
                guard n > 0 else { continue }
                received.withLock { $0 += 1 }
                guard let reply = answer(Array(buffer[..<n])) else { continue }
                _ = withUnsafePointer(to: &peer) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { sendto(fd, reply, reply.count, 0, $0, peerLength) }
                }
            }
            close(fd)
        }
    }

    func stop() { stopped.withLock { $0 = true } }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
