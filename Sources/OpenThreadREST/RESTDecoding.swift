import FoundationEssentials
import TBRFoundation
import MeshCoP

/// Reads what an otbr-agent's REST API answers (`../shared/otbr/rest.md`) into typed values. Every
/// decoder takes the body's bytes as they came from the network and either returns a value or throws a
/// ``RESTDecodingError`` saying what was wrong: never a crash, whatever the bytes (they are fuzzed:
/// fuzz/RESTFuzz.swift). This file and RESTValues.swift import nothing but MeshCoP and TBRFoundation,
/// so the fuzz target compiles them as they are.
public enum RESTDecoding {
    /// A JSON string body (`GET /node/state`, `/node/ba-id`, `/node/ba-epskc/state`).
    public static func string(_ body: [UInt8]) throws(RESTDecodingError) -> String {
        try decode(String.self, body, what: "a JSON string")
    }

    /// `GET /node`.
    public static func node(_ body: [UInt8]) throws(RESTDecodingError) -> RESTNode {
        struct Wire: Decodable {
            var baId: String?
            var state: String?
            var networkName: String?
            var extPanId: String?
            var rloc16: String?
            var extAddress: String?
        }
        let wire = try decode(Wire.self, body, what: "the node object")
        guard let state = wire.state else { throw RESTDecodingError("the node object has no state") }
        var baID: BorderAgentID?
        if let text = wire.baId {
            guard let id = BorderAgentID(text) else { throw RESTDecodingError("the node's baId \(text.debugDescription) is not 32 hex digits") }
            baID = id
        }
        var xpan: ExtendedPANID?
        if let text = wire.extPanId {
            guard text.count == 16, let value = ExtendedPANID(text) else {
                throw RESTDecodingError("the node's extPanId \(text.debugDescription) is not 16 hex digits")
            }
            xpan = value
        }
        return RESTNode(
            borderAgentID: baID, roleName: state, networkName: wire.networkName, extendedPANID: xpan, rloc16: wire.rloc16,
            extendedAddress: wire.extAddress)
    }

    /// `GET /node/ba-epskc/key`: `{"state", "port"}`.
    public static func keyState(_ body: [UInt8]) throws(RESTDecodingError) -> RESTEpskcKeyState {
        struct Wire: Decodable {
            var state: String
            var port: Int?
        }
        let wire = try decode(Wire.self, body, what: "the ePSKc key state")
        guard let state = RESTEpskcKeyState.State(rawValue: wire.state) else {
            throw RESTDecodingError("the ePSKc key state \(wire.state.debugDescription) is none of disabled, stopped, started, connected, accepted")
        }
        return RESTEpskcKeyState(state: state, port: try port(wire.port ?? 0))
    }

    /// `POST /node/ba-epskc/key`: `{"tap": "9 digits", "port"}`.
    public static func grant(_ body: [UInt8]) throws(RESTDecodingError) -> RESTEpskcGrant {
        struct Wire: Decodable {
            var tap: String
            var port: Int
        }
        let wire = try decode(Wire.self, body, what: "the new ePSKc")
        let key: EphemeralKey
        do { key = try EphemeralKey(validating: wire.tap) } catch {
            throw RESTDecodingError("the agent answered a key that is not a valid ePSKc (\(error))")
        }
        return RESTEpskcGrant(key: key, port: try port(wire.port))
    }

    /// `GET /.well-known/thread/br-rest`: the API's version and base path.
    public static func wellKnown(_ body: [UInt8]) throws(RESTDecodingError) -> (version: String, base: String) {
        struct Wire: Decodable {
            struct API: Decodable {
                var version: String
                var base: String
            }
            var api: API
        }
        let wire = try decode(Wire.self, body, what: "the br-rest description")
        return (wire.api.version, wire.api.base)
    }

    /// A dataset as `text/plain` hex (the agent writes upper case): its TLV bytes.
    public static func datasetHex(_ body: [UInt8]) throws(RESTDecodingError) -> [UInt8] {
        var text = String(decoding: body, as: UTF8.self).filter { !$0.isWhitespace }
        if text.hasPrefix("\""), text.hasSuffix("\""), text.count >= 2 { text = String(text.dropFirst().dropLast()) }
        guard text.count % 2 == 0, text.count <= 2 * OperationalDataset.maximumLength, text.allSatisfy(\.isHexDigit),
            let bytes = try? Hex.decode(text)
        else {
            throw RESTDecodingError("the dataset is not hex TLVs of at most \(OperationalDataset.maximumLength) bytes")
        }
        return bytes
    }

    /// An error body `{"title", "status", "detail"}`: its words, for messages (nil when it is not one).
    public static func problem(_ body: [UInt8]) -> String? {
        struct Wire: Decodable {
            var title: String?
            var detail: String?
        }
        guard let wire = try? JSONDecoder().decode(Wire.self, from: Data(body)), let title = wire.title else { return nil }
        return [title, wire.detail].compactMap { $0?.isEmpty == false ? $0 : nil }.joined(separator: ": ")
    }

    private static func decode<T: Decodable>(_ type: T.Type, _ body: [UInt8], what: String) throws(RESTDecodingError) -> T {
        do {
            return try JSONDecoder().decode(T.self, from: Data(body))
        } catch {
            throw RESTDecodingError("the answer is not \(what) (\(body.isEmpty ? "empty" : "\(body.count) bytes"))")
        }
    }

    private static func port(_ value: Int) throws(RESTDecodingError) -> UInt16 {
        guard let port = UInt16(exactly: value) else { throw RESTDecodingError("port \(value) is out of range") }
        return port
    }
}

/// Why a REST answer cannot be read.
public struct RESTDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong.
    public let message: String
    init(_ message: String) { self.message = message }
    public var description: String { message }
}
