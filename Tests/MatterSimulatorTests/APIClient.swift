import TBRFoundation
import TBRTestKit
import WebSocket

/// A client of python-matter-server's WebSocket API for the tests, as tbrd or Home Assistant would be
/// one: it keeps every message it receives, in order, and waits for the one a test expects (a reply by
/// its `message_id`, an event by its name), never for time. Every wait is bounded (10 s) so that a
/// missing message fails the test instead of hanging it.
actor APIClient {
    let connection: WebSocketClient
    /// The server's greeting.
    private(set) var greeting: JSON = nil
    /// Everything received after the greeting, in order (texts and their JSON).
    private(set) var received: [(text: String, json: JSON)] = []
    private var nextID = 0
    /// How the connection ended, once it has.
    private(set) var ended: WebSocketError?

    private init(connection: WebSocketClient) { self.connection = connection }

    /// Connects to `url` and reads the greeting.
    static func connect(_ url: String) async throws -> APIClient {
        let connection = try await WebSocketClient.connect(to: WebSocketURL(url))
        let client = APIClient(connection: connection)
        let first = try await client.receiveOne()
        await client.setGreeting(first.json)
        return client
    }

    private func setGreeting(_ json: JSON) { greeting = json }

    /// Sends a command and returns its `message_id`.
    @discardableResult
    func send(_ command: String, _ args: JSON? = nil, id: String? = nil) async throws -> String {
        nextID += 1
        let messageID = id ?? "\(command)-\(nextID)"
        var message: JSON = ["message_id": .string(messageID), "command": .string(command)]
        if let args, case .object(var o) = message {
            o["args"] = args
            message = .object(o)
        }
        try await connection.send(text: message.serialized)
        return messageID
    }

    /// Sends raw text.
    func sendRaw(_ text: String) async throws { try await connection.send(text: text) }

    /// Reads one message (bounded), keeping it.
    private func receiveOne() async throws -> (text: String, json: JSON) {
        let connection = self.connection
        let outcome = try await TimeLimit.run(.seconds(10), clock: SystemClock()) { try await connection.receive() }
        guard case .finished(let message) = outcome else { throw TestKitError("no message from the server within 10 s; got \(received.map(\.json.serialized))") }
        guard case .text(let text) = message else { throw TestKitError("the server sent a binary message") }
        return (text, try JSON(parsing: text))
    }

    /// Waits until a message satisfying `predicate` has arrived (returning the first one, from
    /// `index` on) and returns it with its index.
    func wait(from index: Int = 0, for what: String, _ predicate: (JSON) -> Bool) async throws -> (index: Int, json: JSON) {
        var i = index
        while true {
            while i < received.count {
                if predicate(received[i].json) { return (i, received[i].json) }
                i += 1
            }
            do {
                let message = try await receiveOne()
                received.append(message)
            } catch let error as WebSocketError {
                ended = error
                throw TestKitError("the connection ended (\(error)) before \(what); got \(received.map(\.json.serialized))")
            }
        }
    }

    /// The reply to the command `id` (a result or an error).
    func reply(_ id: String) async throws -> JSON {
        try await wait(for: "the reply to \(id)") { $0["message_id"]?.string == id }.json
    }

    /// The text of the reply to `id`, exactly as sent.
    func replyText(_ id: String) async throws -> String {
        let found = try await wait(for: "the reply to \(id)") { $0["message_id"]?.string == id }
        return received[found.index].text
    }

    /// The result of the command `id`.
    /// - Throws: when it failed.
    func result(_ id: String) async throws -> JSON {
        let reply = try await reply(id)
        guard let result = reply["result"] else { throw TestKitError("\(id) failed: \(reply.serialized)") }
        return result
    }

    /// Sends a command and waits for its result.
    func call(_ command: String, _ args: JSON? = nil) async throws -> JSON {
        try await result(try await send(command, args))
    }

    /// Sends a command and waits for its error: `(error_code, details)`.
    func failure(_ command: String, _ args: JSON? = nil) async throws -> (Int64, String) {
        let reply = try await reply(try await send(command, args))
        guard let code = reply["error_code"]?.int64, let details = reply["details"]?.string else {
            throw TestKitError("\(command) did not fail: \(reply.serialized)")
        }
        return (code, details)
    }

    /// The index of the first event `name` (from `index` on) whose data satisfies `predicate`.
    func event(_ name: String, from index: Int = 0, _ predicate: (JSON) -> Bool = { _ in true }) async throws -> (index: Int, data: JSON) {
        let found = try await wait(from: index, for: "event \(name)") { $0["event"]?.string == name && predicate($0["data"] ?? nil) }
        return (found.index, found.json["data"] ?? nil)
    }

    /// The index of the reply to `id`.
    func index(ofReply id: String) async throws -> Int {
        try await wait(for: "the reply to \(id)") { $0["message_id"]?.string == id }.index
    }

    /// Waits until the connection ends, and how.
    func end() async -> WebSocketError? {
        while ended == nil {
            do {
                received.append(try await receiveOne())
            } catch let error as WebSocketError {
                ended = error
            } catch {
                return nil
            }
        }
        return ended
    }

    /// Closes the connection.
    func close() async { await connection.close() }
}
