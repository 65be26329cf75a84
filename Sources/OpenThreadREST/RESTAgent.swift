public import HTTP
public import MeshCoP
public import OpenThreadBR
import TBRFoundation

/// The client of one otbr-agent's REST API (ot-br-posix `src/rest`; what a real agent answers:
/// `../shared/otbr/rest.md`), as tbrd manages a border router on another host: its node, state,
/// datasets and ephemeral key. Every call is bounded by the HTTP client's time limit and response size,
/// and fails with a ``RESTAgentError`` naming the agent.
///
/// The API has no authentication and no TLS of its own: whoever reaches it can read the network key
/// and start keys. It has no signals either: a caller learns of changes by reading again.
public struct RESTAgent: Sendable {
    /// The API's base URL as the admin gave it (`http://192.0.2.10:8081`).
    public let base: HTTPURL
    let http: HTTPClient

    /// A client of the API at `base`.
    public init(base: HTTPURL, http: HTTPClient = HTTPClient()) {
        self.base = base
        self.http = http
    }

    /// How the agent identifies itself: its Border Agent ID, and the br-rest version when it has the
    /// `/.well-known/thread/br-rest` description (older agents do not).
    public struct Identity: Hashable, Sendable {
        /// `GET /node/ba-id`.
        public var borderAgentID: BorderAgentID
        /// `api.version` of `/.well-known/thread/br-rest`; nil when the agent has none.
        public var apiVersion: String?
    }

    /// Checks that an otbr-agent's REST API answers at ``base``: `/.well-known/thread/br-rest` (else, on
    /// older agents, `/node/ba-id`), and reads its Border Agent ID.
    /// - Throws: ``RESTAgentError``: `unreachable` or `timedOut` when nothing answers; `notAnAgent`
    ///   saying what answered instead.
    public func identify() async throws(RESTAgentError) -> Identity {
        let known = try await send("GET", "/.well-known/thread/br-rest", accept: "application/json")
        var version: String?
        if known.status == 200 {
            do { version = try RESTDecoding.wellKnown(known.body).version } catch {
                throw RESTAgentError(.notAnAgent, "\(base) answers /.well-known/thread/br-rest with something else: \(error)")
            }
        } else if known.status != 404 {
            throw RESTAgentError(
                .notAnAgent, "\(base) is not an otbr-agent REST API: /.well-known/thread/br-rest answered \(Self.words(known))",
                status: known.status)
        }
        let id = try await send("GET", "/node/ba-id", accept: "application/json")
        guard id.status == 200 else {
            throw RESTAgentError(.notAnAgent, "\(base) is not an otbr-agent REST API: /node/ba-id answered \(Self.words(id))", status: id.status)
        }
        do {
            let text = try RESTDecoding.string(id.body)
            guard let baID = BorderAgentID(text) else { throw RESTDecodingError("\(text.debugDescription) is not 32 hex digits") }
            return Identity(borderAgentID: baID, apiVersion: version)
        } catch {
            throw RESTAgentError(.notAnAgent, "\(base) is not an otbr-agent REST API: /node/ba-id answered \(error)")
        }
    }

    /// `GET /node`.
    public func node() async throws(RESTAgentError) -> RESTNode {
        try await read("/node", RESTDecoding.node)
    }

    /// `GET /node/state`: the role.
    public func role() async throws(RESTAgentError) -> DeviceRole {
        DeviceRole(wireName: try await read("/node/state", RESTDecoding.string))
    }

    /// `PUT /node/state` `"enable"` or `"disable"`.
    public func setThreadEnabled(_ enabled: Bool) async throws(RESTAgentError) {
        try await write("PUT", "/node/state", json: enabled ? "\"enable\"" : "\"disable\"", what: "setting its Thread state")
    }

    /// `GET /node/dataset/active|pending` as TLVs; nil when there is none (204).
    public func dataset(pending: Bool) async throws(RESTAgentError) -> [UInt8]? {
        let path = pending ? "/node/dataset/pending" : "/node/dataset/active"
        let response = try await send("GET", path, accept: "text/plain")
        if response.status == 204 { return nil }
        try check(response, path)
        do { return try RESTDecoding.datasetHex(response.body) } catch { throw invalid(path, error) }
    }

    /// `PUT /node/dataset/active|pending` with `tlvs` as hex.
    /// - Throws: ``RESTAgentError`` `refused` with status 409 while Thread is enabled (active), 400 for a
    ///   dataset the agent does not take.
    @discardableResult
    public func setDataset(_ tlvs: [UInt8], pending: Bool) async throws(RESTAgentError) -> RESTDatasetWrite {
        let path = pending ? "/node/dataset/pending" : "/node/dataset/active"
        let response = try await send("PUT", path, body: Array(Hex.encode(tlvs).utf8), contentType: "text/plain")
        try check(response, path)
        return response.status == 201 ? .created : .updated
    }

    /// `DELETE /node`: erases the agent's persistent Thread data (a factory reset of it).
    public func eraseNode() async throws(RESTAgentError) {
        let response = try await send("DELETE", "/node")
        try check(response, "/node")
    }

    /// `GET /node/ba-epskc/state`: whether the ePSKc feature is on.
    public func epskcEnabled() async throws(RESTAgentError) -> Bool {
        try await read("/node/ba-epskc/state", RESTDecoding.string) == "enabled"
    }

    /// `POST /node/ba-epskc/key` `{"lifetime": ms}`: starts a key.
    /// - Throws: ``RESTAgentError`` `refused` with 409 while a key is active or the feature is off, 400
    ///   for a lifetime the agent does not take.
    public func startEpskc(lifetime: Duration) async throws(RESTAgentError) -> RESTEpskcGrant {
        let ms = lifetime.milliseconds()
        let response = try await send(
            "POST", "/node/ba-epskc/key", body: Array("{\"lifetime\": \(ms)}".utf8), contentType: "application/json",
            accept: "application/json")
        try check(response, "/node/ba-epskc/key")
        do { return try RESTDecoding.grant(response.body) } catch { throw invalid("/node/ba-epskc/key", error) }
    }

    /// `GET /node/ba-epskc/key`: the key's state.
    public func epskcState() async throws(RESTAgentError) -> RESTEpskcKeyState {
        try await read("/node/ba-epskc/key", RESTDecoding.keyState)
    }

    /// `DELETE /node/ba-epskc/key`: stops the key (harmless without one).
    public func stopEpskc() async throws(RESTAgentError) {
        let response = try await send("DELETE", "/node/ba-epskc/key")
        try check(response, "/node/ba-epskc/key")
    }

    // MARK: requests

    private func read<T>(_ path: String, _ decode: ([UInt8]) throws(RESTDecodingError) -> T) async throws(RESTAgentError) -> T {
        let response = try await send("GET", path, accept: "application/json")
        try check(response, path)
        do { return try decode(response.body) } catch { throw invalid(path, error) }
    }

    private func write(_ method: String, _ path: String, json: String, what: String) async throws(RESTAgentError) {
        let response = try await send(method, path, body: Array(json.utf8), contentType: "application/json")
        try check(response, path)
    }

    func send(_ method: String, _ path: String, body: [UInt8]? = nil, contentType: String? = nil, accept: String? = nil)
        async throws(RESTAgentError) -> HTTPResponse
    {
        var headers: [(String, String)] = []
        if let contentType { headers.append(("Content-Type", contentType)) }
        if let accept { headers.append(("Accept", accept)) }
        do {
            return try await http.send(HTTPRequest(method, base.appending(path), headers: headers, body: body))
        } catch {
            switch error.kind {
            case .unreachable, .tls: throw RESTAgentError(.unreachable, "the otbr-agent at \(base) cannot be reached: \(error.message)")
            case .timedOut: throw RESTAgentError(.timedOut, "the otbr-agent at \(base) did not answer in time: \(error.message)")
            case .cancelled: throw RESTAgentError(.cancelled, "\(method) \(path) on \(base) was cancelled")
            case .tooLarge, .protocolViolation: throw RESTAgentError(.invalidResponse, "the otbr-agent at \(base) answered badly: \(error.message)")
            }
        }
    }

    /// A 2xx answer passes; anything else is `refused` with its status and the agent's words.
    func check(_ response: HTTPResponse, _ path: String) throws(RESTAgentError) {
        guard !(200..<300).contains(response.status) else { return }
        throw RESTAgentError(.refused, "the otbr-agent at \(base) refused \(path): \(Self.words(response))", status: response.status)
    }

    func invalid(_ path: String, _ error: RESTDecodingError) -> RESTAgentError {
        RESTAgentError(.invalidResponse, "the otbr-agent at \(base) answered \(path) with something unreadable: \(error)")
    }

    /// `409 Conflict`, with the agent's title when it sent one, or what else answered.
    static func words(_ response: HTTPResponse) -> String {
        if let problem = RESTDecoding.problem(response.body) { return "\(response.status) (\(problem))" }
        let type = response.contentType.map { ", \($0)" } ?? ""
        return "\(response.status)\(type)"
    }
}

extension RESTNode {
    /// The role as the D-Bus client types it.
    public var role: DeviceRole { DeviceRole(wireName: roleName) }
}
