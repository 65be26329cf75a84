import Dispatch
import TBRFoundation

/// HTTP/1.1 requests through libcurl, for tbrd's REST clients: `http` and `https` only, certificates
/// verified, no redirects followed, no proxy taken from the environment, a bound on each response's size
/// and a time limit on each request. libcurl's easy interface blocks, so each transfer runs on a serial
/// Dispatch queue of its own: such a queue is over-committing, it gets a thread of its own at once, so
/// neither the threads of Swift's cooperative pool (on Linux, Dispatch's width-limited global queues)
/// nor other transfers ever wait behind one that waits on the network. A cancelled caller stops its
/// transfer at libcurl's next progress callback.
public struct HTTPClient: Sendable {
    /// The longest response body accepted (default 1 MiB); a longer one fails with `tooLarge`.
    public let maximumResponseBytes: Int
    /// How long one request may take, connecting included (default 5 s).
    public let timeout: Duration
    /// A client with these bounds.
    public init(timeout: Duration = .seconds(5), maximumResponseBytes: Int = 1 << 20) {
        self.timeout = timeout
        self.maximumResponseBytes = maximumResponseBytes
    }

    /// Sends `request` and returns the response, whatever its status.
    /// - Throws: ``HTTPError`` when no complete response came: `unreachable`, `timedOut`, `tooLarge`,
    ///   `tls`, `protocolViolation`, `cancelled`.
    public func send(_ request: HTTPRequest) async throws(HTTPError) -> HTTPResponse {
        let url = request.url
        let transfer: CurlTransfer
        do { transfer = try CurlTransfer(request, timeout: timeout, maximumBytes: maximumResponseBytes) } catch {
            throw HTTPError(.protocolViolation, "\(request.method) \(url): \(error)")
        }
        let box = TransferBox(transfer)
        let outcome: Result<HTTPResponse, HTTPError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                DispatchQueue(label: "tbrd.http.transfer").async {
                    continuation.resume(returning: Self.finish(box.transfer, request, bound: maximumResponseBytes))
                }
            }
        } onCancel: {
            box.transfer.cancelled.store(true, ordering: .relaxed)
        }
        return try outcome.get()
    }

    private static func finish(_ transfer: CurlTransfer, _ request: HTTPRequest, bound: Int) -> Result<HTTPResponse, HTTPError> {
        let what = "\(request.method) \(request.url)"
        switch transfer.perform() {
        case .success(let status):
            return .success(HTTPResponse(status: status, contentType: transfer.contentType, headers: transfer.responseHeaders, body: transfer.body))
        case .failure(let failure):
            if transfer.overflowed {
                return .failure(HTTPError(.tooLarge, "\(what): the answer is longer than the \(bound) bytes accepted"))
            }
            switch failure.kind {
            case .timedOut: return .failure(HTTPError(.timedOut, "\(what): no complete answer in time (\(failure.message))"))
            case .unreachable: return .failure(HTTPError(.unreachable, "\(what): nothing answers (\(failure.message))"))
            case .cancelled: return .failure(HTTPError(.cancelled, "\(what) was cancelled"))
            case .tls: return .failure(HTTPError(.tls, "\(what): TLS failed (\(failure.message))"))
            default: return .failure(HTTPError(.protocolViolation, "\(what): \(failure.message)"))
            }
        }
    }
}

/// A transfer handed to the client's queue and to the cancellation handler: one thread performs it while
/// the other may only set its atomic `cancelled` flag.
private final class TransferBox: @unchecked Sendable {
    let transfer: CurlTransfer
    init(_ transfer: CurlTransfer) { self.transfer = transfer }
}
