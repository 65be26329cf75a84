import TBRFoundation
import TBRTestKit
import Testing
import WebSocket

/// The same exchanges against the real python-matter-server (8.1.2, in namespaces of its own:
/// TBRTestKit's MatterServerProcess) and against matter-sim, for everything the real one can do
/// without a device or a Bluetooth adapter: the greeting, the replies and their text (byte for byte,
/// but for the compressed fabric ID, which each server draws itself), the order of a result and its
/// event, and what closes a connection. Needs root and the venv `make matter-server` installs.
@Suite(.serialized) struct PythonMatterServerConformanceTests {
    /// The commands both servers answer alike, with no device: each reply's text.
    static let commands: [(String, JSON?)] = [
        ("server_info", nil),
        ("nope", nil),
        ("get_node", nil),
        ("get_node", ["node_id": 999]),
        ("get_node", ["node_id": "abc"]),
        ("get_node", ["node_id": "7"]),
        ("get_node", ["node_id": true]),
        ("get_node", ["node_id": .double(5)]),
        ("get_nodes", nil),
        ("get_nodes", ["only_available": true]),
        ("commission_with_code", ["code": "MT:Y.K9042C00KA0648G00"]),
        ("commission_with_code", ["code": 5]),
        ("set_thread_dataset", ["dataset": "zz"]),
        ("set_thread_dataset", ["dataset": "0e0"]),
        ("remove_node", ["node_id": 999]),
        ("ping_node", ["node_id": 999]),
        ("get_node_ip_addresses", ["node_id": 999]),
        ("read_attribute", ["node_id": 999, "attribute_path": "0/40/5"]),
        ("read_attribute", ["node_id": 1]),
        ("write_attribute", ["node_id": 999, "attribute_path": "0/40/5", "value": "x"]),
        ("open_commissioning_window", ["node_id": 999]),
        ("open_commissioning_window", ["node_id": "x"]),
        ("diagnostics", nil),
    ]

    /// What a server answered: the greeting and each reply as text, and the listening exchange.
    struct Transcript: Equatable {
        var greeting = ""
        var replies: [String] = []
        /// After start_listening: the texts of set_thread_dataset("00")'s result and the event, in order.
        var listening: [String] = []
        /// How connections sent bad text or a second start_listening ended.
        var closings: [String] = []
    }

    /// Runs the exchanges against the server at `url`.
    static func transcript(_ url: String) async throws -> Transcript {
        var t = Transcript()
        let client = try await APIClient.connect(url)
        t.greeting = await client.greeting.indented
        for (n, (command, args)) in commands.enumerated() {
            let id = try await client.send(command, args, id: "m\(n)")
            t.replies.append(normalized(try await client.replyText(id)))
        }
        let listen = try await client.send("start_listening", id: "listen")
        t.listening.append(normalized(try await client.replyText(listen)))
        let dataset = try await client.send("set_thread_dataset", ["dataset": "00"], id: "dataset")
        let event = try await client.event("server_info_updated")
        let reply = try await client.index(ofReply: dataset)
        let texts = await client.received
        for i in [reply, event.index].sorted() { t.listening.append(normalized(texts[i].text)) }
        await client.close()
        for text in ["not json", #"{"message_id": 5, "command": "server_info"}"#, #"{"message_id": "1", "command": "get_nodes", "args": [1]}"#] {
            let bad = try await APIClient.connect(url)
            try await bad.sendRaw(text)
            t.closings.append("\(await bad.end().map(String.init(describing:)) ?? "?") after \(await bad.received.count) messages")
        }
        let twice = try await APIClient.connect(url)
        _ = try await twice.call("start_listening")
        try await twice.send("start_listening")
        t.closings.append("\(await twice.end().map(String.init(describing:)) ?? "?") after a second start_listening")
        return t
    }

    /// `text` with the compressed fabric ID (different on every server) replaced.
    static func normalized(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            guard let r = line.range(of: "\"compressed_fabric_id\": ") else { return String(line) }
            let rest = line[r.upperBound...]
            let digits = rest.prefix { $0.isNumber }
            return String(line[..<r.upperBound]) + "<id>" + rest.dropFirst(digits.count)
        }.joined(separator: "\n")
    }

    @Test func matterSimAnswersAsThePythonMatterServerDoes() async throws {
        let real = try await MatterServerProcess.start()
        let fromReal: Transcript
        do {
            fromReal = try await Self.transcript(real.url)
        } catch {
            await real.stop()
            throw error
        }
        await real.stop()
        let sim = try await MatterSimProcess.start()
        let fromSim = try await Self.transcript(sim.url)
        await sim.stop()
        #expect(Self.normalized(fromSim.greeting) == Self.normalized(fromReal.greeting))
        #expect(fromSim.replies.count == Self.commands.count)
        for (n, (real, simulated)) in zip(fromReal.replies, fromSim.replies).enumerated() {
            #expect(simulated == real, "\(Self.commands[n].0) \(Self.commands[n].1?.serialized ?? "")")
        }
        #expect(fromSim.listening == fromReal.listening)
        #expect(fromSim.closings == fromReal.closings)
        #expect(fromReal.closings.allSatisfy { $0.hasPrefix("the peer closed the connection (status 1000)") }, "\(fromReal.closings)")
    }
}
