import TBRFoundation
internal import CCurl
import Synchronization

/// One transfer with libcurl's easy interface, run to its end on the calling thread (the client runs it
/// on a Dispatch queue of its own, never on Swift's cooperative pool). One owner per handle: the handle
/// and its header list are freed when the transfer is.
final class CurlTransfer {
    private let curl: LibCurl.API
    private let handle: UnsafeMutableRawPointer
    private var headers: UnsafeMutablePointer<curl_slist>?
    /// What the server sent so far, and whether it passed the bound.
    private(set) var body: [UInt8] = []
    private(set) var contentType: String?
    /// The headers of the last response, by lower-case name.
    private(set) var responseHeaders: [String: String] = [:]
    private(set) var overflowed = false
    let maximumBytes: Int
    /// Set from another thread to stop the transfer at libcurl's next progress callback.
    let cancelled = Atomic<Bool>(false)

    /// A transfer of `request` bounded by `timeout` and `maximumBytes`.
    /// - Throws: ``LibCurlError`` when libcurl cannot be loaded or cannot make a handle.
    init(_ request: HTTPRequest, timeout: Duration, maximumBytes: Int) throws(LibCurlError) {
        let curl = try LibCurl.api.get()
        guard let handle = curl.easyInit() else { throw LibCurlError(description: "libcurl could not start a transfer") }
        self.curl = curl
        self.handle = handle
        self.maximumBytes = maximumBytes
        configure(request, timeout: timeout)
    }

    deinit {
        curl.easyCleanup(handle)
        curl.slistFreeAll(headers)
    }

    private func configure(_ request: HTTPRequest, timeout: Duration) {
        let setopt = curl.setopt
        tbrd_curl_set_string(setopt, handle, CURLOPT_URL, request.url.description)
        // http and https only, no redirects, no proxies from the environment, no signals (threads).
        tbrd_curl_set_string(setopt, handle, CURLOPT_PROTOCOLS_STR, "http,https")
        tbrd_curl_set_long(setopt, handle, CURLOPT_FOLLOWLOCATION, 0)
        tbrd_curl_set_string(setopt, handle, CURLOPT_PROXY, "")
        tbrd_curl_set_long(setopt, handle, CURLOPT_NOSIGNAL, 1)
        // https verifies the peer's certificate and name (libcurl's defaults, stated).
        tbrd_curl_set_long(setopt, handle, CURLOPT_SSL_VERIFYPEER, 1)
        tbrd_curl_set_long(setopt, handle, CURLOPT_SSL_VERIFYHOST, 2)
        let ms = Int(timeout.milliseconds())
        tbrd_curl_set_long(setopt, handle, CURLOPT_TIMEOUT_MS, max(1, ms))
        tbrd_curl_set_long(setopt, handle, CURLOPT_CONNECTTIMEOUT_MS, max(1, ms))
        tbrd_curl_set_string(setopt, handle, CURLOPT_CUSTOMREQUEST, request.method)
        if request.method == "GET" { tbrd_curl_set_long(setopt, handle, CURLOPT_HTTPGET, 1) }
        if let body = request.body {
            // libcurl copies the bytes (COPYPOSTFIELDS); an empty body still needs a valid pointer.
            let bytes = body.isEmpty ? [0] : body
            bytes.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { _ = tbrd_curl_set_body(setopt, handle, $0.baseAddress, body.count) }
            }
        }
        for (name, value) in request.headers { headers = curl.slistAppend(headers, "\(name): \(value)") }
        // No "Expect: 100-continue" round trip for a body.
        headers = curl.slistAppend(headers, "Expect:")
        tbrd_curl_set_slist(setopt, handle, CURLOPT_HTTPHEADER, headers)
        let context = Unmanaged.passUnretained(self).toOpaque()
        tbrd_curl_set_data_callback(setopt, handle, CURLOPT_WRITEFUNCTION) { data, size, count, context in
            let transfer = Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue()
            return transfer.received(data, size * count)
        }
        tbrd_curl_set_pointer(setopt, handle, CURLOPT_WRITEDATA, context)
        tbrd_curl_set_data_callback(setopt, handle, CURLOPT_HEADERFUNCTION) { data, size, count, context in
            let transfer = Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue()
            transfer.header(data, size * count)
            return size * count
        }
        tbrd_curl_set_pointer(setopt, handle, CURLOPT_HEADERDATA, context)
        tbrd_curl_set_long(setopt, handle, CURLOPT_NOPROGRESS, 0)
        tbrd_curl_set_progress_callback(setopt, handle) { context, _, _, _, _ in
            let transfer = Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue()
            return transfer.cancelled.load(ordering: .relaxed) ? 1 : 0
        }
        tbrd_curl_set_pointer(setopt, handle, CURLOPT_XFERINFODATA, context)
    }

    private func received(_ data: UnsafeMutablePointer<CChar>?, _ count: Int) -> Int {
        guard let data, count > 0 else { return 0 }
        guard body.count + count <= maximumBytes else {
            overflowed = true
            return 0  // libcurl stops with CURLE_WRITE_ERROR
        }
        data.withMemoryRebound(to: UInt8.self, capacity: count) { body.append(contentsOf: UnsafeBufferPointer(start: $0, count: count)) }
        return count
    }

    private func header(_ data: UnsafeMutablePointer<CChar>?, _ count: Int) {
        guard let data, count > 0 else { return }
        let line = data.withMemoryRebound(to: UInt8.self, capacity: count) { String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self) }
        // A new response (after 100 Continue, say) starts its headers afresh.
        if line.hasPrefix("HTTP/") {
            contentType = nil
            responseHeaders = [:]
        }
        guard let colon = line.firstIndex(of: ":") else { return }
        let name = line[..<colon].lowercased()
        let text = String(line[line.index(after: colon)...]).trimmingCharacters(in: " \t\r\n")
        responseHeaders[name] = responseHeaders[name].map { $0 + ", " + text } ?? text
        guard name == "content-type" else { return }
        let value = line[line.index(after: colon)...].split(separator: ";").first.map(String.init) ?? ""
        contentType = value.trimmingCharacters(in: " \t\r\n").lowercased()
    }

    /// Runs the transfer to its end.
    /// - Returns: the status code, or the failure in words for ``HTTPClient``.
    func perform() -> Result<Int, CurlFailure> {
        let code = curl.easyPerform(handle)
        guard code == CURLE_OK else { return .failure(CurlFailure(code: Int(code.rawValue), message: curl.easyStrerror(code).map { String(cString: $0) } ?? "libcurl error \(code.rawValue)")) }
        var status = 0
        tbrd_curl_response_code(curl.getinfo, handle, &status)
        return .success(status)
    }

    /// libcurl's error: its `CURLcode` and sentence.
    struct CurlFailure: Error {
        let code: Int
        let message: String

        /// The kind of ``HTTPError`` this is (see curl's libcurl-errors(3)).
        var kind: HTTPError.Kind {
            switch code {
            case Int(CURLE_OPERATION_TIMEDOUT.rawValue): .timedOut
            case Int(CURLE_COULDNT_RESOLVE_HOST.rawValue), Int(CURLE_COULDNT_CONNECT.rawValue), Int(CURLE_COULDNT_RESOLVE_PROXY.rawValue):
                .unreachable
            case Int(CURLE_ABORTED_BY_CALLBACK.rawValue): .cancelled
            case Int(CURLE_PEER_FAILED_VERIFICATION.rawValue), Int(CURLE_SSL_CONNECT_ERROR.rawValue), Int(CURLE_SSL_CERTPROBLEM.rawValue),
                Int(CURLE_SSL_CACERT_BADFILE.rawValue):
                .tls
            default: .protocolViolation
            }
        }
    }
}

extension String {
    fileprivate func trimmingCharacters(in set: String) -> String {
        var s = Substring(self)
        while let f = s.first, set.contains(f) { s.removeFirst() }
        while let l = s.last, set.contains(l) { s.removeLast() }
        return String(s)
    }
}
