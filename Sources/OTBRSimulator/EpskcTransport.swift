internal import Dispatch
import DTLS
import MeshCoP
import TBRFoundation

/// The border agent's ePSKc DTLS port while a key is active, as OpenThread serves it
/// (`border_agent_ephemeral_key.cpp`, `secure_transport.cpp`; observed on a real otbr-agent in
/// `../otbr/README.md`, "ePSKc as a commissioner"): DTLS 1.2 with TLS_ECJPAKE_WITH_AES_128_CCM_8, the key's
/// digits as the EC-JPAKE password, a HelloVerifyRequest cookie first, one session at a time, and over it
/// CoAP: `c/ag` (MGMT_ACTIVE_GET) answered `2.04` with the whole Active dataset, no petition needed.
///
/// It runs on a thread of its own (the sessions block in poll(2)) and tells the agent what happened
/// through ``Events``, whose calls block until the actor has taken them, so the key's state is always
/// decided by ``EphemeralKeyManager``. After a failed handshake it hears nothing for 2 s (the real agent
/// answers a retry that soon only ~3 s later: the old session is still being removed); the agent closes
/// the port when the manager stops the key (the 10th counted failure, its lifetime, a stop), and the
/// session, if any, is cut at once.
final class EpskcTransport: Sendable {
    /// What the transport reports; each call returns once the agent has taken it.
    struct Events: Sendable {
        /// A handshake completed (true) or failed on the password (false). Returns whether the key is
        /// still active.
        var handshake: @Sendable (_ succeeded: Bool) -> Bool
        /// MGMT_ACTIVE_GET: the Active dataset's TLVs, or nil when there is none.
        var activeDataset: @Sendable () -> [UInt8]?
        /// The commissioner closed its session, or the agent's 50 s session timeout ran out.
        var sessionEnded: @Sendable (_ timedOut: Bool) -> Void
    }

    /// What the agent keeps between handshakes: OpenThread's secure session timeout.
    static let sessionTimeout: Duration = .seconds(50)
    let port: UInt16
    private let cancellation: DTLSCancellation

    /// Binds `port` (another random one when it is taken and `fixed` is false) and starts serving.
    init(port: UInt16, fixed: Bool, key: String, retryHold: Duration, events: Events, logger: Logger) throws(DTLSError) {
        let cancellation = try DTLSCancellation()
        var socket: DTLSServerSocket?
        var candidate = port
        for _ in 0..<16 {
            do {
                socket = try DTLSServerSocket(port: candidate, cancellation: cancellation)
                break
            } catch {
                guard !fixed else { throw error }
                candidate = UInt16.random(in: 49153...65535)
            }
        }
        guard let socket else { throw .socket("no free UDP port for the ePSKc") }
        self.port = socket.port
        self.cancellation = cancellation
        let password = Array(key.utf8)
        let box = SocketBox(socket)
        DispatchQueue(label: "otbr-sim.epskc-dtls").async {
            Self.serve(box.socket, password, retryHold, cancellation, events, logger)
        }
    }

    /// Closes the port and ends any session at once.
    func stop() { cancellation.cancel() }

    deinit { cancellation.cancel() }

    /// Hands the socket to the serving thread, which alone uses it from then on.
    private final class SocketBox: @unchecked Sendable {
        let socket: DTLSServerSocket
        init(_ socket: DTLSServerSocket) { self.socket = socket }
    }

    private static func serve(
        _ socket: DTLSServerSocket, _ password: [UInt8], _ retryHold: Duration, _ cancellation: DTLSCancellation,
        _ events: Events, _ logger: Logger
    ) {
        while true {
            let clientID: [UInt8]
            do { clientID = try socket.waitForClient(timeout: .seconds(86_400)) } catch .deadline { continue } catch { return }
            let session: DTLSSession
            do { session = try DTLSSession(serving: socket.fd, clientID: clientID, password: password, cancellation: cancellation) } catch {
                logger.warning("ePSKc DTLS session could not be set up", [("error", error.description)])
                return
            }
            switch handshake(session) {
            case .cancelled:
                return
            case .abandoned:
                socket.release()
                continue
            case .failed:
                socket.release()
                guard events.handshake(false) else { return }
                do { try socket.discard(for: retryHold) } catch { return }
                continue
            case .connected:
                guard events.handshake(true) else { return }
            }
            let timedOut = serveCoAP(session, events)
            guard let timedOut else { return }
            if timedOut { session.closeNotify() }
            events.sessionEnded(timedOut)
            // The key is used: it stops after the disconnect guard, and with it this port.
            socket.release()
            do { try socket.discard(for: .seconds(86_400)) } catch { return }
        }
    }

    private enum HandshakeEnd { case connected, failed, abandoned, cancelled }

    private static func handshake(_ session: DTLSSession) -> HandshakeEnd {
        while true {
            do {
                try session.handshake(timeout: .seconds(10))
                return .connected
            } catch .helloVerify {
                do { try session.reset() } catch { return .abandoned }
            } catch .badFinished, .peerAlert {
                return .failed
            } catch .cancelled {
                return .cancelled
            } catch {
                // The client went quiet or sent garbage: not a counted failure.
                return .abandoned
            }
        }
    }

    /// Answers CoAP requests until the session ends. Returns whether it timed out, or nil when cancelled.
    private static func serveCoAP(_ session: DTLSSession, _ events: Events) -> Bool? {
        while true {
            let datagram: [UInt8]
            do { datagram = try session.receive(timeout: sessionTimeout) } catch .deadline { return true } catch .cancelled {
                return nil
            } catch {
                return false
            }
            guard let request = try? CoAPMessage(decoding: datagram), request.code.isRequest,
                request.kind == .confirmable || request.kind == .nonConfirmable
            else { continue }
            var answer = CoAPMessage(
                kind: request.kind == .confirmable ? .acknowledgement : .nonConfirmable, code: CoAPMessage.Code(4, 4),
                messageID: request.kind == .confirmable ? request.messageID : .random(in: 0...UInt16.max), token: request.token)
            // c/ag with an active dataset: 2.04 with it; anything else stays 4.04 Not Found.
            if request.uriPath == "c/ag", request.code == .post, let tlvs = events.activeDataset() {
                answer.code = .changed
                answer.payload = tlvs
            }
            do { try session.send(answer.encoded()) } catch .cancelled { return nil } catch { return false }
        }
    }
}
