import Foundation
import WebSocket

/// Another controller on a shared python-matter-server (or matter-sim), as Home Assistant is beside tbrd:
/// a WebSocket client of the test's own that sends commands and reads their answers. It never sends
/// `start_listening`, so the only messages it reads are the greeting and the answers to its commands.
///
/// With the real server and no hardware it "commissions" its own nodes with `import_test_node` (the
/// server's import of a diagnostics dump): the server adds them with node IDs from 900000 up and sends
/// `node_added` to every listening client, exactly as for a node it commissioned.
public actor MatterController {
    private let client: WebSocketClient
    /// The server's greeting as it sent it (JSON: `schema_version`, `thread_credentials_set`, …).
    public let greeting: String
    private var nextID = 0

    /// A command the server refused: its `error_code` and `details`.
    public struct Refusal: Error, CustomStringConvertible {
        public let code: Int
        public let details: String
        public var description: String { "error \(code): \(details)" }
    }

    private init(client: WebSocketClient, greeting: String) {
        self.client = client
        self.greeting = greeting
    }

    /// Connects to `url` and reads the greeting.
    public static func connect(_ url: String) async throws -> MatterController {
        let client = try await WebSocketClient.connect(to: WebSocketURL(url))
        do {
            guard case .text(let text) = try await client.receive(), text.contains("schema_version") else {
                throw TestKitError("the server did not greet with its information")
            }
            return MatterController(client: client, greeting: text)
        } catch {
            await client.close()
            throw error
        }
    }

    /// Sends `command` with `args` (JSON text of an object, or nil for none) and returns its `result` as
    /// JSON text.
    /// - Throws: ``Refusal`` for the server's error; what the connection throws.
    @discardableResult
    public func command(_ command: String, _ args: String? = nil) async throws -> String {
        nextID += 1
        let id = "other-\(nextID)"
        try await client.send(text: #"{"message_id": "\#(id)", "command": "\#(command)""# + (args.map { #", "args": \#($0)}"# } ?? "}"))
        while true {
            guard case .text(let text) = try await client.receive(),
                let answer = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
                answer["message_id"] as? String == id
            else { continue }
            if let code = answer["error_code"] as? Int { throw Refusal(code: code, details: answer["details"] as? String ?? "") }
            let result = answer["result"] ?? NSNull()
            return String(decoding: try JSONSerialization.data(withJSONObject: result, options: .fragmentsAllowed), as: UTF8.self)
        }
    }

    /// The node IDs the server has, sorted.
    public func nodeIDs() async throws -> [UInt64] {
        let nodes = try JSONSerialization.jsonObject(with: Data(try await command("get_nodes").utf8)) as? [[String: Any]] ?? []
        return nodes.compactMap { ($0["node_id"] as? NSNumber)?.uint64Value }.sorted()
    }

    /// Adds a node of this controller's own with `import_test_node` and returns its node ID.
    public func importTestNode(vendorID: UInt16 = 0xFFF1, productID: UInt16 = 0x8000, label: String = "") async throws -> UInt64 {
        let before = Set(try await nodeIDs())
        let node: [String: Any] = [
            "node_id": 1, "date_commissioned": "2026-01-01T00:00:00", "last_interview": "2026-01-01T00:00:00",
            "interview_version": 6, "available": true, "is_bridge": false,
            "attributes": ["0/40/1": "TestVendor", "0/40/2": Int(vendorID), "0/40/3": "TestProduct", "0/40/4": Int(productID), "0/40/5": label],
            "attribute_subscriptions": [],
        ]
        let dump = String(decoding: try JSONSerialization.data(withJSONObject: ["data": ["node": node]]), as: UTF8.self)
        let args = try JSONSerialization.data(withJSONObject: ["dump": dump])
        try await command("import_test_node", String(decoding: args, as: UTF8.self))
        guard let added = Set(try await nodeIDs()).subtracting(before).first else { throw TestKitError("import_test_node added no node") }
        return added
    }

    /// Closes the connection.
    public func close() async { await client.close() }
}
