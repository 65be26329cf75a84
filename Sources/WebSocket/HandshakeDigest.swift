// The only file of this module that touches OpenSSL: SHA-1 and base64 for the opening handshake.
internal import CLibCrypto

/// The `Sec-WebSocket-Accept` computation (RFC 6455, section 4.2.2): base64(SHA-1(key + GUID)).
enum HandshakeDigest {
    /// The GUID every server appends to the client's key.
    static let guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    /// The accept value a server must answer to `key`.
    static func accept(forKey key: String) -> String {
        base64(sha1(Array((key + guid).utf8)))
    }

    /// SHA-1 of `bytes` (`EVP_Digest` with `EVP_sha1`). SHA-1 cannot fail on memory we own; a failure
    /// is a broken libcrypto and traps.
    static func sha1(_ bytes: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 20)
        var length: UInt32 = 0
        let ok = bytes.withUnsafeBytes { input in
            digest.withUnsafeMutableBufferPointer { out in
                EVP_Digest(input.baseAddress, input.count, out.baseAddress, &length, EVP_sha1(), nil)
            }
        }
        precondition(ok == 1 && length == 20, "libcrypto's SHA-1 failed")
        return digest
    }

    /// Standard base64 with padding (`EVP_EncodeBlock`).
    static func base64(_ bytes: [UInt8]) -> String {
        guard !bytes.isEmpty else { return "" }
        var out = [UInt8](repeating: 0, count: (bytes.count + 2) / 3 * 4 + 1)
        let written = out.withUnsafeMutableBufferPointer { o in
            bytes.withUnsafeBufferPointer { i in EVP_EncodeBlock(o.baseAddress, i.baseAddress, Int32(i.count)) }
        }
        return String(decoding: out.prefix(Int(written)), as: UTF8.self)
    }
}
