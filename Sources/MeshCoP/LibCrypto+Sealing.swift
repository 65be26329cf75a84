internal import CLibCrypto

// What a tbrd backup is sealed with (docs/operations.md, "Backups and recovery"): a key derived from a
// passphrase with scrypt (RFC 7914) and AES-256-GCM, both OpenSSL's. No cipher of our own.
extension LibCrypto {
    /// scrypt's cost, as a backup's header records it.
    package struct ScryptCost: Hashable, Sendable {
        /// log2 of N, the CPU and memory cost.
        package var log2N: UInt8
        /// The block size.
        package var r: UInt32
        /// The parallelism.
        package var p: UInt32

        package init(log2N: UInt8, r: UInt32, p: UInt32) {
            self.log2N = log2N
            self.r = r
            self.p = p
        }

        /// The memory scrypt needs with this cost, in bytes (128 · r · N, and 128 · r · p for the blocks).
        package var memoryBytes: UInt64 { 128 * UInt64(r) * ((1 << UInt64(log2N)) + UInt64(p)) }
    }

    /// `count` bytes derived from `passphrase` and `salt` with scrypt (`EVP_PBE_scrypt`).
    /// - Throws: ``CryptoError`` when libcrypto cannot be loaded or refuses the cost.
    package static func scrypt(passphrase: [UInt8], salt: [UInt8], cost: ScryptCost, count: Int) throws(CryptoError) -> [UInt8] {
        let c = try loaded()
        var out = [UInt8](repeating: 0, count: count)
        // OpenSSL refuses more than 32 MiB unless told a limit; the cost's own need, with room for its blocks.
        let limit = cost.memoryBytes + (1 << 20)
        // A terminating zero, so an empty passphrase still has an address (scrypt reads `count` bytes only).
        let terminated = passphrase + [0]
        let rc = terminated.withUnsafeBufferPointer { pass in
            salt.withUnsafeBufferPointer { salt in
                out.withUnsafeMutableBufferPointer { out in
                    pass.withMemoryRebound(to: CChar.self) { pass in
                        c.scrypt(
                            pass.baseAddress, pass.count - 1, salt.baseAddress, salt.count, 1 << UInt64(cost.log2N), UInt64(cost.r),
                            UInt64(cost.p), limit, out.baseAddress, out.count)
                    }
                }
            }
        }
        guard rc == 1 else { throw error("EVP_PBE_scrypt", c) }
        return out
    }

    /// `plaintext` encrypted with AES-256-GCM under the 32-byte `key` and 12-byte `nonce`, `associated`
    /// authenticated too: the ciphertext followed by the 16-byte tag.
    /// - Throws: ``CryptoError`` when libcrypto cannot be loaded or the cipher fails.
    package static func sealAES256GCM(_ plaintext: [UInt8], key: [UInt8], nonce: [UInt8], associated: [UInt8]) throws(CryptoError) -> [UInt8] {
        let cipher = try GCMCipher(key: key, nonce: nonce, encrypting: true)
        try cipher.authenticate(associated)
        var out = try cipher.update(plaintext)
        try cipher.finish()
        out += try cipher.tag()
        return out
    }

    /// The plaintext of `sealed` (ciphertext, then the 16-byte tag), or nil when the tag does not verify:
    /// another key, another nonce, other associated data, or a changed byte.
    /// - Throws: ``CryptoError`` when libcrypto cannot be loaded or the cipher fails otherwise.
    package static func openAES256GCM(_ sealed: [UInt8], key: [UInt8], nonce: [UInt8], associated: [UInt8]) throws(CryptoError) -> [UInt8]? {
        guard sealed.count >= 16 else { return nil }
        let cipher = try GCMCipher(key: key, nonce: nonce, encrypting: false)
        try cipher.authenticate(associated)
        let out = try cipher.update(Array(sealed.dropLast(16)))
        try cipher.expect(tag: Array(sealed.suffix(16)))
        return cipher.verified() ? out : nil
    }
}

/// One AES-256-GCM operation over an `EVP_CIPHER_CTX`, freed in `deinit`; not shared between threads.
private final class GCMCipher {
    private let c: LibCrypto.API
    private let context: OpaquePointer

    init(key: [UInt8], nonce: [UInt8], encrypting: Bool) throws(CryptoError) {
        precondition(key.count == 32 && nonce.count == 12, "AES-256-GCM takes a 32-byte key and a 12-byte nonce")
        let c = try LibCrypto.loaded()
        guard let context = c.cipherContextNew() else { throw LibCrypto.error("EVP_CIPHER_CTX_new", c) }
        self.c = c
        self.context = context
        let direction: Int32 = encrypting ? 1 : 0
        guard c.cipherInit(context, c.aes256GCM(), nil, nil, nil, direction) == 1,
            c.cipherControl(context, tbrd_gcm_set_ivlen, 12, nil) == 1
        else { throw LibCrypto.error("EVP_CipherInit_ex", c) }
        let rc = key.withUnsafeBufferPointer { key in
            nonce.withUnsafeBufferPointer { nonce in c.cipherInit(context, nil, nil, key.baseAddress, nonce.baseAddress, direction) }
        }
        guard rc == 1 else { throw LibCrypto.error("EVP_CipherInit_ex", c) }
    }

    deinit { c.cipherContextFree(context) }

    func authenticate(_ associated: [UInt8]) throws(CryptoError) {
        guard !associated.isEmpty else { return }
        var length: Int32 = 0
        let rc = associated.withUnsafeBufferPointer { c.cipherUpdate(context, nil, &length, $0.baseAddress, Int32($0.count)) }
        guard rc == 1 else { throw LibCrypto.error("EVP_CipherUpdate", c) }
    }

    func update(_ input: [UInt8]) throws(CryptoError) -> [UInt8] {
        guard !input.isEmpty else { return [] }
        var out = [UInt8](repeating: 0, count: input.count + 16)
        var length: Int32 = 0
        let rc = input.withUnsafeBufferPointer { input in
            out.withUnsafeMutableBufferPointer { c.cipherUpdate(context, $0.baseAddress, &length, input.baseAddress, Int32(input.count)) }
        }
        guard rc == 1 else { throw LibCrypto.error("EVP_CipherUpdate", c) }
        return Array(out.prefix(Int(length)))
    }

    func finish() throws(CryptoError) {
        var rest = [UInt8](repeating: 0, count: 16)
        var length: Int32 = 0
        guard rest.withUnsafeMutableBufferPointer({ c.cipherFinal(context, $0.baseAddress, &length) }) == 1 else {
            throw LibCrypto.error("EVP_CipherFinal_ex", c)
        }
    }

    func tag() throws(CryptoError) -> [UInt8] {
        var tag = [UInt8](repeating: 0, count: 16)
        guard tag.withUnsafeMutableBytes({ c.cipherControl(context, tbrd_gcm_get_tag, 16, $0.baseAddress) }) == 1 else {
            throw LibCrypto.error("EVP_CIPHER_CTX_ctrl", c)
        }
        return tag
    }

    func expect(tag: [UInt8]) throws(CryptoError) {
        var tag = tag
        guard tag.withUnsafeMutableBytes({ c.cipherControl(context, tbrd_gcm_set_tag, 16, $0.baseAddress) }) == 1 else {
            throw LibCrypto.error("EVP_CIPHER_CTX_ctrl", c)
        }
    }

    /// Whether the tag verified (`EVP_CipherFinal_ex` fails when it did not; its error is not kept).
    func verified() -> Bool {
        var rest = [UInt8](repeating: 0, count: 16)
        var length: Int32 = 0
        let ok = rest.withUnsafeMutableBufferPointer { c.cipherFinal(context, $0.baseAddress, &length) } == 1
        if !ok { c.errClearError() }
        return ok
    }
}
