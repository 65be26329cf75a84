import DTLS
import Dispatch
import Foundation
import MeshCoP
import TBRFoundation
import TBRTestKit
import Testing

/// `tbrctl network fetch` against border agents that complete the real handshake and then answer badly:
/// a refusal, a payload far larger than any dataset, and something that is not CoAP.
@Suite struct HostileBorderAgentTests {
    /// A one-session DTLS EC-JPAKE server on loopback (the DTLS module's own server side) that answers the
    /// first CoAP request with what `answer` makes of it.
    final class Agent: Sendable {
        let port: UInt16
        let key: String
        private let cancellation: DTLSCancellation

        init(answer: @escaping @Sendable (CoAPMessage) -> [UInt8]) throws {
            let key = try EphemeralKey.generate().digits
            let cancellation = try DTLSCancellation()
            let socket = try DTLSServerSocket(cancellation: cancellation)
            self.port = socket.port
            self.key = key
            self.cancellation = cancellation
            let box = Box(socket)
            DispatchQueue(label: "hostile-agent").async {
                let socket = box.socket
                guard let client = try? socket.waitForClient(timeout: .seconds(60)),
                    let session = try? DTLSSession(serving: socket.fd, clientID: client, password: Array(key.utf8), cancellation: cancellation)
                else { return }
                while true {
                    do {
                        try session.handshake(timeout: .seconds(30))
                        break
                    } catch let error as DTLSError where error == .helloVerify {
                        guard (try? session.reset()) != nil else { return }
                    } catch { return }
                }
                guard let datagram = try? session.receive(timeout: .seconds(30)), let request = try? CoAPMessage(decoding: datagram) else { return }
                try? session.send(answer(request))
                _ = try? session.receive(timeout: .seconds(30))
            }
        }

        func stop() { cancellation.cancel() }

        private final class Box: @unchecked Sendable {
            let socket: DTLSServerSocket
            init(_ socket: DTLSServerSocket) { self.socket = socket }
        }
    }

    static func reply(_ request: CoAPMessage, _ code: CoAPMessage.Code, _ payload: [UInt8] = []) -> [UInt8] {
        CoAPMessage(kind: .acknowledgement, code: code, messageID: request.messageID, token: request.token, payload: payload).encoded()
    }

    @Test func refusalsHugeAnswersAndGarbageAreClearErrors() async throws {
        try await withRig([]) { rig throws in
            let cases: [(answer: @Sendable (CoAPMessage) -> [UInt8], status: Int32, says: String)] = [
                ({ Self.reply($0, CoAPMessage.Code(4, 1)) }, 1, "answered 4.01 Unauthorized"),
                ({ Self.reply($0, .changed, [UInt8](repeating: 0x0e, count: 1200)) }, 65, "a dataset of 1200 bytes"),
                ({ _ in [0xff, 0xfe, 0xfd] }, 65, "not CoAP"),
                ({ Self.reply($0, .changed, Array(try! Hex.decode("0e080000000000010000"))) }, 65, "not complete"),
            ]
            for (answer, status, says) in cases {
                let agent = try Agent(answer: answer)
                defer { agent.stop() }
                let result = try await rig.run(["network", "fetch", "--key", agent.key, "--from", "127.0.0.1:\(agent.port)", "--timeout", "10"])
                #expect(result.status == status && result.stderr.contains(says), "\(says): \(result.status) \(result.stderr)")
                #expect(result.stdout.isEmpty, "nothing printed for a failed fetch")
            }
        }
    }
}
