// The only file that touches OpenSSL: the CSPRNG and AES-CMAC. Nothing from C leaves it.
internal import CLibCrypto

/// OpenSSL's libcrypto, reduced to what MeshCoP needs.
enum LibCrypto {
    /// `count` bytes from OpenSSL's CSPRNG (`RAND_bytes`).
    /// - Throws: ``CryptoError`` when the generator cannot produce them (no entropy).
    static func randomBytes(_ count: Int) throws(CryptoError) -> [UInt8] {
        guard count > 0 else { return [] }
        var out = [UInt8](repeating: 0, count: count)
        let rc = out.withUnsafeMutableBufferPointer { RAND_bytes($0.baseAddress, Int32(clamping: $0.count)) }
        guard rc == 1 else { throw error("RAND_bytes") }
        return out
    }

    /// The error for `function`, with the reason OpenSSL queued (the queue is emptied).
    static func error(_ function: String) -> CryptoError {
        var detail = "no reason given"
        let code = ERR_get_error()
        if code != 0 {
            var buffer = [CChar](repeating: 0, count: 256)
            buffer.withUnsafeMutableBufferPointer { ERR_error_string_n(code, $0.baseAddress, $0.count) }
            detail = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        ERR_clear_error()
        return CryptoError(function: function, detail: detail)
    }
}

/// AES-128-CMAC (RFC 4493) with one key through OpenSSL 3's `EVP_MAC` "CMAC". Owns its `EVP_MAC` and
/// `EVP_MAC_CTX`, freed in `deinit`; not shared between threads.
final class AESCMAC {
    private let mac: OpaquePointer
    private let context: OpaquePointer
    private let key: [UInt8]

    /// A CMAC over AES-128 with the 16-byte `key`.
    /// - Throws: ``CryptoError`` when OpenSSL lacks CMAC or AES-128-CBC, or the key is refused.
    init(key: [UInt8]) throws(CryptoError) {
        precondition(key.count == 16, "AES-128-CMAC needs a 16-byte key")
        guard let mac = EVP_MAC_fetch(nil, "CMAC", nil) else { throw LibCrypto.error("EVP_MAC_fetch") }
        guard let context = EVP_MAC_CTX_new(mac) else {
            EVP_MAC_free(mac)
            throw LibCrypto.error("EVP_MAC_CTX_new")
        }
        self.mac = mac
        self.context = context
        self.key = key
        var cipher = Array("AES-128-CBC".utf8CString)
        let ok = "cipher".withCString { name in
            cipher.withUnsafeMutableBufferPointer { value in
                var params = [OSSL_PARAM_construct_utf8_string(name, value.baseAddress, 0), OSSL_PARAM_construct_end()]
                return EVP_MAC_CTX_set_params(context, &params)
            }
        }
        guard ok == 1 else { throw LibCrypto.error("EVP_MAC_CTX_set_params") }
    }

    deinit {
        EVP_MAC_CTX_free(context)
        EVP_MAC_free(mac)
    }

    /// The 16-byte CMAC of `message`.
    /// - Throws: ``CryptoError`` when an `EVP_MAC_*` call fails.
    func authenticate(_ message: [UInt8]) throws(CryptoError) -> [UInt8] {
        let initialised = key.withUnsafeBufferPointer { EVP_MAC_init(context, $0.baseAddress, $0.count, nil) }
        guard initialised == 1 else { throw LibCrypto.error("EVP_MAC_init") }
        let updated = message.withUnsafeBufferPointer { EVP_MAC_update(context, $0.baseAddress, $0.count) }
        guard updated == 1 else { throw LibCrypto.error("EVP_MAC_update") }
        var out = [UInt8](repeating: 0, count: 16)
        var length = 0
        let finished = out.withUnsafeMutableBufferPointer { EVP_MAC_final(context, $0.baseAddress, &length, $0.count) }
        guard finished == 1, length == 16 else { throw LibCrypto.error("EVP_MAC_final") }
        return out
    }
}
