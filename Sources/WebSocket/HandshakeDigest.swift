// SHA-1 comes from libcrypto through MeshCoP's loader (opened on first use); base64 from Foundation.
internal import FoundationEssentials
internal import MeshCoP

/// The `Sec-WebSocket-Accept` computation (RFC 6455, section 4.2.2): base64(SHA-1(key + GUID)).
enum HandshakeDigest {
    /// The GUID every server appends to the client's key.
    static let guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    /// The accept value a server must answer to `key`.
    /// - Throws: ``WebSocketError/handshakeFailed(_:)`` when libcrypto cannot compute SHA-1.
    static func accept(forKey key: String) throws(WebSocketError) -> String {
        do {
            return base64(try LibCrypto.sha1(Array((key + guid).utf8)))
        } catch {
            throw .handshakeFailed("the expected Sec-WebSocket-Accept cannot be computed: \(error)")
        }
    }

    /// Standard base64 with padding.
    static func base64(_ bytes: [UInt8]) -> String { Data(bytes).base64EncodedString() }
}
