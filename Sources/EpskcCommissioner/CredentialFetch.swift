internal import Dispatch
public import DTLS
public import MeshCoP

/// The ePSKc commissioner: fetches a border router's Active dataset with the ephemeral key it shows.
///
/// It connects to the key's UDP port (the `_meshcop-e._udp` SRV port) with DTLS 1.2 and
/// TLS_ECJPAKE_WITH_AES_128_CCM_8, the key's digits as ASCII as the EC-JPAKE password (as OpenThread's
/// border agent sets it), sends `MGMT_ACTIVE_GET.req` (a confirmable CoAP POST to `c/ag`, no payload: the
/// whole dataset), and closes with close_notify, so that the router sees its key used. A real otbr-agent
/// answers without a commissioner petition (`../otbr/README.md`, "ePSKc as a commissioner").
public enum CredentialFetch {
    /// The default wait, handshake and request together.
    public static let defaultTimeout: Duration = .seconds(30)

    /// Fetches the Active dataset from `address` with `key`, giving up after `timeout`.
    /// - Returns: the dataset's TLVs as the router sent them, checked to be a complete Active dataset.
    /// - Throws: ``CredentialFetchError``; cancelling the task ends the wait with ``CredentialFetchError/cancelled``.
    public static func activeDataset(from address: UDPAddress, key: EphemeralKey, timeout: Duration = defaultTimeout)
        async throws(CredentialFetchError) -> FetchedDataset
    {
        let cancellation: DTLSCancellation
        do { cancellation = try DTLSCancellation() } catch { throw .session(address, error.description) }
        let password = Array(key.digits.utf8)
        let result: Result<FetchedDataset, CredentialFetchError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                // The session blocks in poll(2) up to `timeout`: a thread of its own, not the cooperative pool's.
                DispatchQueue(label: "tbrd.epskc-fetch").async {
                    let result: Result<FetchedDataset, CredentialFetchError>
                    do throws(CredentialFetchError) { result = .success(try fetch(address, password, timeout, cancellation)) } catch { result = .failure(error) }
                    continuation.resume(returning: result)
                }
            }
        } onCancel: {
            cancellation.cancel()
        }
        return try result.get()
    }

    /// The blocking exchange.
    static func fetch(_ address: UDPAddress, _ password: [UInt8], _ timeout: Duration, _ cancellation: DTLSCancellation)
        throws(CredentialFetchError) -> FetchedDataset
    {
        do {
            return try exchange(address, password, timeout, cancellation)
        } catch let error as CredentialFetchError {
            throw error
        } catch let error as DTLSError {
            switch error {
            case .peerAlert, .badFinished: throw .wrongKey(address)
            case .refused: throw .nothingListening(address)
            case .deadline: throw .noAnswer(address, seconds: Int(timeout.components.seconds))
            case .cancelled: throw .cancelled
            case .peerClosed: throw .badAnswer(address, "it closed the session before answering")
            case .helloVerify, .socket, .failed: throw .session(address, error.description)
            }
        } catch {
            throw .session(address, "\(error)")
        }
    }

    private static func exchange(_ address: UDPAddress, _ password: [UInt8], _ timeout: Duration, _ cancellation: DTLSCancellation)
        throws -> FetchedDataset
    {
        let start = ContinuousClock.now
        let deadline = start + timeout
        let session = try DTLSSession(connectingTo: address, password: password, cancellation: cancellation)
        try session.handshake(timeout: deadline - .now)
        let handshakeTime = ContinuousClock.now - start
        defer { session.closeNotify() }
        var exchange = ActiveGetExchange()
        try session.send(exchange.request.encoded())
        while true {
            let wait = min(exchange.retransmitIn, deadline - .now)
            guard wait > .zero else { throw DTLSError.deadline }
            guard let datagram = try receive(session, wait) else {
                if let again = exchange.retransmit() { try session.send(again.encoded()) }
                continue
            }
            switch exchange.receive(datagram) {
            case .wait:
                continue
            case .acknowledge(let ack, let answer):
                try session.send(ack.encoded())
                return try finish(answer, address, handshakeTime, session.cipherSuite)
            case .answer(let answer):
                return try finish(answer, address, handshakeTime, session.cipherSuite)
            case .reset:
                throw CredentialFetchError.refused(address, code: "a CoAP reset")
            case .malformed(let why):
                throw CredentialFetchError.badAnswer(address, why)
            }
        }
    }

    /// The next datagram, or nil when `wait` passed first.
    private static func receive(_ session: DTLSSession, _ wait: Duration) throws -> [UInt8]? {
        do {
            return try session.receive(timeout: wait)
        } catch .deadline {
            return nil
        }
    }

    private static func finish(_ answer: CoAPMessage, _ address: UDPAddress, _ handshakeTime: Duration, _ suite: String)
        throws(CredentialFetchError) -> FetchedDataset
    {
        guard answer.code.isSuccess else { throw .refused(address, code: answer.code.description) }
        let tlvs = answer.payload
        guard tlvs.count <= OperationalDataset.maximumLength else {
            throw .badAnswer(address, "a dataset of \(tlvs.count) bytes (at most \(OperationalDataset.maximumLength))")
        }
        let problems = OperationalDataset.validate(bytes: tlvs, as: .active)
        guard problems.isEmpty else { throw .incompleteDataset(address, problems) }
        return FetchedDataset(tlvs: tlvs, address: address, cipherSuite: suite, handshakeTime: handshakeTime)
    }
}

/// What a fetch brought back.
public struct FetchedDataset: Sendable {
    /// The Active dataset's TLVs as the router sent them (secrets included).
    public let tlvs: [UInt8]
    /// Where it came from.
    public let address: UDPAddress
    /// The DTLS cipher suite ("TLS-ECJPAKE-WITH-AES-128-CCM-8").
    public let cipherSuite: String
    /// How long the handshake took.
    public let handshakeTime: Duration
}
