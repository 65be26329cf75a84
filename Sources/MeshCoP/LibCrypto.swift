// OpenSSL's libcrypto, loaded: the CSPRNG, AES-CMAC, SHA-1 and SHA-256 (LibCrypto+Sealing.swift: scrypt and
// AES-256-GCM; SelfSignedCertificate.swift: the HTTPS key). Nothing from C leaves MeshCoP.
internal import CLibCrypto
internal import TBRFoundation

/// OpenSSL's libcrypto, reduced to what MeshCoP needs.
///
/// libcrypto is opened with `dlopen` on first use rather than linked: loading it (and relocating it)
/// costs every process about a millisecond, and most `tbrctl` commands never derive a key. The library
/// is opened and every function resolved at once, once per process (``api``); a machine without it, or
/// with one that lacks a function, gets a ``CryptoError`` naming the soname and the function instead of
/// a binary that does not start.
package enum LibCrypto {
    /// The functions MeshCoP calls, resolved from the loaded library.
    struct API: @unchecked Sendable {
        // @unchecked: C function pointers from a library that is never unloaded; immutable.
        let randBytes: tbrd_RAND_bytes
        let errGetError: tbrd_ERR_get_error
        let errErrorString: tbrd_ERR_error_string_n
        let errClearError: tbrd_ERR_clear_error
        let macFetch: tbrd_EVP_MAC_fetch
        let macFree: tbrd_EVP_MAC_free
        let contextNew: tbrd_EVP_MAC_CTX_new
        let contextFree: tbrd_EVP_MAC_CTX_free
        let contextSetParameters: tbrd_EVP_MAC_CTX_set_params
        let macInit: tbrd_EVP_MAC_init
        let macUpdate: tbrd_EVP_MAC_update
        let macFinal: tbrd_EVP_MAC_final
        let parameterUTF8: tbrd_OSSL_PARAM_construct_utf8_string
        let parameterEnd: tbrd_OSSL_PARAM_construct_end
        let digest: tbrd_EVP_Digest
        let sha1: tbrd_EVP_sha1
        let sha256: tbrd_EVP_sha256
        let keyContextNew: tbrd_EVP_PKEY_CTX_new_from_name
        let keyContextFree: tbrd_EVP_PKEY_CTX_free
        let keygenInit: tbrd_EVP_PKEY_keygen_init
        let setGroupName: tbrd_EVP_PKEY_CTX_set_group_name
        let generate: tbrd_EVP_PKEY_generate
        let keyFree: tbrd_EVP_PKEY_free
        let x509New: tbrd_X509_new
        let x509Free: tbrd_X509_free
        let x509SetVersion: tbrd_X509_set_version
        let x509SerialNumber: tbrd_X509_get_serialNumber
        let asn1IntegerSet: tbrd_ASN1_INTEGER_set_uint64
        let x509NotBefore: tbrd_X509_getm_notBefore
        let x509NotAfter: tbrd_X509_getm_notAfter
        let x509GmtimeAdjust: tbrd_X509_gmtime_adj
        let x509SetPublicKey: tbrd_X509_set_pubkey
        let x509SubjectName: tbrd_X509_get_subject_name
        let x509SetIssuerName: tbrd_X509_set_issuer_name
        let x509NameAddEntry: tbrd_X509_NAME_add_entry_by_txt
        let x509Sign: tbrd_X509_sign
        let bioNew: tbrd_BIO_new
        let bioMemory: tbrd_BIO_s_mem
        let bioFree: tbrd_BIO_free
        let bioControl: tbrd_BIO_ctrl
        let pemWriteCertificate: tbrd_PEM_write_bio_X509
        let pemWritePrivateKey: tbrd_PEM_write_bio_PrivateKey
        let scrypt: tbrd_EVP_PBE_scrypt
        let cipherContextNew: tbrd_EVP_CIPHER_CTX_new
        let cipherContextFree: tbrd_EVP_CIPHER_CTX_free
        let cipherControl: tbrd_EVP_CIPHER_CTX_ctrl
        let aes256GCM: tbrd_EVP_aes_256_gcm
        let cipherInit: tbrd_EVP_CipherInit_ex
        let cipherUpdate: tbrd_EVP_CipherUpdate
        let cipherFinal: tbrd_EVP_CipherFinal_ex

        /// Resolves every function from `library`.
        /// - Throws: ``SharedLibraryError`` naming the first function `library` lacks.
        init(_ library: SharedLibrary) throws(SharedLibraryError) {
            randBytes = try library.function("RAND_bytes")
            errGetError = try library.function("ERR_get_error")
            errErrorString = try library.function("ERR_error_string_n")
            errClearError = try library.function("ERR_clear_error")
            macFetch = try library.function("EVP_MAC_fetch")
            macFree = try library.function("EVP_MAC_free")
            contextNew = try library.function("EVP_MAC_CTX_new")
            contextFree = try library.function("EVP_MAC_CTX_free")
            contextSetParameters = try library.function("EVP_MAC_CTX_set_params")
            macInit = try library.function("EVP_MAC_init")
            macUpdate = try library.function("EVP_MAC_update")
            macFinal = try library.function("EVP_MAC_final")
            parameterUTF8 = try library.function("OSSL_PARAM_construct_utf8_string")
            parameterEnd = try library.function("OSSL_PARAM_construct_end")
            digest = try library.function("EVP_Digest")
            sha1 = try library.function("EVP_sha1")
            sha256 = try library.function("EVP_sha256")
            keyContextNew = try library.function("EVP_PKEY_CTX_new_from_name")
            keyContextFree = try library.function("EVP_PKEY_CTX_free")
            keygenInit = try library.function("EVP_PKEY_keygen_init")
            setGroupName = try library.function("EVP_PKEY_CTX_set_group_name")
            generate = try library.function("EVP_PKEY_generate")
            keyFree = try library.function("EVP_PKEY_free")
            x509New = try library.function("X509_new")
            x509Free = try library.function("X509_free")
            x509SetVersion = try library.function("X509_set_version")
            x509SerialNumber = try library.function("X509_get_serialNumber")
            asn1IntegerSet = try library.function("ASN1_INTEGER_set_uint64")
            x509NotBefore = try library.function("X509_getm_notBefore")
            x509NotAfter = try library.function("X509_getm_notAfter")
            x509GmtimeAdjust = try library.function("X509_gmtime_adj")
            x509SetPublicKey = try library.function("X509_set_pubkey")
            x509SubjectName = try library.function("X509_get_subject_name")
            x509SetIssuerName = try library.function("X509_set_issuer_name")
            x509NameAddEntry = try library.function("X509_NAME_add_entry_by_txt")
            x509Sign = try library.function("X509_sign")
            bioNew = try library.function("BIO_new")
            bioMemory = try library.function("BIO_s_mem")
            bioFree = try library.function("BIO_free")
            bioControl = try library.function("BIO_ctrl")
            pemWriteCertificate = try library.function("PEM_write_bio_X509")
            pemWritePrivateKey = try library.function("PEM_write_bio_PrivateKey")
            scrypt = try library.function("EVP_PBE_scrypt")
            cipherContextNew = try library.function("EVP_CIPHER_CTX_new")
            cipherContextFree = try library.function("EVP_CIPHER_CTX_free")
            cipherControl = try library.function("EVP_CIPHER_CTX_ctrl")
            aes256GCM = try library.function("EVP_aes_256_gcm")
            cipherInit = try library.function("EVP_CipherInit_ex")
            cipherUpdate = try library.function("EVP_CipherUpdate")
            cipherFinal = try library.function("EVP_CipherFinal_ex")
        }
    }

    /// The sonames tried: the one Debian's `libssl3` ships (Debian 12: OpenSSL 3.0).
    static let libraryNames = ["libcrypto.so.3"]

    /// libcrypto's functions, loaded on first use (a lazy, thread-safe `static let`): the process-wide
    /// library, never unloaded.
    static let api: Result<API, CryptoError> = load(libraryNames)

    /// The loaded API.
    /// - Throws: ``CryptoError`` when libcrypto or one of its functions cannot be found.
    static func loaded() throws(CryptoError) -> API { try api.get() }

    /// Opens the first of `names` that loads and resolves every function from it.
    /// - Returns: the functions, or a ``CryptoError`` naming the sonames tried or the missing function.
    static func load(_ names: [String]) -> Result<API, CryptoError> {
        do {
            return .success(try API(try SharedLibrary.open(names)))
        } catch {
            if let symbol = error.symbol {
                return .failure(CryptoError(function: "dlsym(\(symbol))", detail: "\(error); OpenSSL 3 is needed"))
            }
            return .failure(CryptoError(function: "dlopen", detail: "\(error) (install libssl3)"))
        }
    }

    /// `count` bytes from OpenSSL's CSPRNG (`RAND_bytes`).
    /// - Throws: ``CryptoError`` when libcrypto cannot be loaded or the generator cannot produce them.
    package static func randomBytes(_ count: Int) throws(CryptoError) -> [UInt8] {
        guard count > 0 else { return [] }
        let c = try loaded()
        var out = [UInt8](repeating: 0, count: count)
        let rc = out.withUnsafeMutableBufferPointer { c.randBytes($0.baseAddress, Int32(clamping: $0.count)) }
        guard rc == 1 else { throw error("RAND_bytes", c) }
        return out
    }

    /// SHA-1 of `bytes` (`EVP_Digest` with `EVP_sha1`), for protocols that still name it (the WebSocket
    /// opening handshake); never for secrets.
    /// - Throws: ``CryptoError`` when libcrypto cannot be loaded or the digest fails.
    package static func sha1(_ bytes: [UInt8]) throws(CryptoError) -> [UInt8] {
        let c = try loaded()
        var digest = [UInt8](repeating: 0, count: 20)
        var length: UInt32 = 0
        let ok = bytes.withUnsafeBytes { input in
            digest.withUnsafeMutableBufferPointer { out in
                c.digest(input.baseAddress, input.count, out.baseAddress, &length, c.sha1(), nil)
            }
        }
        guard ok == 1, length == 20 else { throw error("EVP_Digest", c) }
        return digest
    }

    /// SHA-256 of `bytes` (`EVP_Digest` with `EVP_sha256`): the HTTPS API's token hashes and its
    /// certificate's fingerprint.
    /// - Throws: ``CryptoError`` when libcrypto cannot be loaded or the digest fails.
    package static func sha256(_ bytes: [UInt8]) throws(CryptoError) -> [UInt8] {
        let c = try loaded()
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        let ok = bytes.withUnsafeBytes { input in
            digest.withUnsafeMutableBufferPointer { out in
                c.digest(input.baseAddress, input.count, out.baseAddress, &length, c.sha256(), nil)
            }
        }
        guard ok == 1, length == 32 else { throw error("EVP_Digest", c) }
        return digest
    }

    /// The error for `function`, with the reason OpenSSL queued (the queue is emptied).
    static func error(_ function: String, _ c: API) -> CryptoError {
        var detail = "no reason given"
        let code = c.errGetError()
        if code != 0 {
            var buffer = [CChar](repeating: 0, count: 256)
            buffer.withUnsafeMutableBufferPointer { c.errErrorString(code, $0.baseAddress, $0.count) }
            detail = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        c.errClearError()
        return CryptoError(function: function, detail: detail)
    }
}

/// AES-128-CMAC (RFC 4493) with one key through OpenSSL 3's `EVP_MAC` "CMAC". Owns its `EVP_MAC` and
/// `EVP_MAC_CTX`, freed in `deinit`; not shared between threads.
final class AESCMAC {
    private let c: LibCrypto.API
    private let mac: OpaquePointer
    private let context: OpaquePointer
    private let key: [UInt8]

    /// A CMAC over AES-128 with the 16-byte `key`.
    /// - Throws: ``CryptoError`` when libcrypto cannot be loaded, lacks CMAC or AES-128-CBC, or refuses the key.
    init(key: [UInt8]) throws(CryptoError) {
        precondition(key.count == 16, "AES-128-CMAC needs a 16-byte key")
        let c = try LibCrypto.loaded()
        guard let mac = c.macFetch(nil, "CMAC", nil) else { throw LibCrypto.error("EVP_MAC_fetch", c) }
        guard let context = c.contextNew(mac) else {
            c.macFree(mac)
            throw LibCrypto.error("EVP_MAC_CTX_new", c)
        }
        self.c = c
        self.mac = mac
        self.context = context
        self.key = key
        var cipher = Array("AES-128-CBC".utf8CString)
        let ok = "cipher".withCString { name in
            cipher.withUnsafeMutableBufferPointer { value in
                var params = [c.parameterUTF8(name, value.baseAddress, 0), c.parameterEnd()]
                return c.contextSetParameters(context, &params)
            }
        }
        guard ok == 1 else { throw LibCrypto.error("EVP_MAC_CTX_set_params", c) }
    }

    deinit {
        c.contextFree(context)
        c.macFree(mac)
    }

    /// The 16-byte CMAC of `message`.
    /// - Throws: ``CryptoError`` when an `EVP_MAC_*` call fails.
    func authenticate(_ message: [UInt8]) throws(CryptoError) -> [UInt8] {
        let initialised = key.withUnsafeBufferPointer { c.macInit(context, $0.baseAddress, $0.count, nil) }
        guard initialised == 1 else { throw LibCrypto.error("EVP_MAC_init", c) }
        let updated = message.withUnsafeBufferPointer { c.macUpdate(context, $0.baseAddress, $0.count) }
        guard updated == 1 else { throw LibCrypto.error("EVP_MAC_update", c) }
        var out = [UInt8](repeating: 0, count: 16)
        var length = 0
        let finished = out.withUnsafeMutableBufferPointer { c.macFinal(context, $0.baseAddress, &length, $0.count) }
        guard finished == 1, length == 16 else { throw LibCrypto.error("EVP_MAC_final", c) }
        return out
    }
}
