extension PSKc {
    /// The passphrase lengths OpenThread accepts, in UTF-8 bytes (`kMinPassPhraseLength`,
    /// `kMaxPassPhraseLength`).
    public static let passphraseLengths: ClosedRange<Int> = 6...255
    /// PBKDF2 iterations for the PSKc (Thread 1.4 §8.4.1.2.2).
    static let iterations = 16384

    /// Why a PSKc could not be derived.
    public enum DerivationError: Error, Hashable, Sendable, CustomStringConvertible {
        /// The passphrase has this many UTF-8 bytes, outside ``PSKc/passphraseLengths``.
        case passphraseLength(Int)
        /// OpenSSL failed.
        case crypto(CryptoError)

        /// The error as one sentence.
        public var description: String {
            switch self {
            case .passphraseLength(let n):
                "the commissioning passphrase must be 6–255 characters (UTF-8 bytes) long; it has \(n)"
            case .crypto(let e):
                "PSKc derivation failed: \(e)"
            }
        }
    }

    /// Derives the PSKc from the commissioning passphrase (Thread 1.4 §8.4.1.2.2; OpenThread
    /// `GeneratePskc`):
    /// `PBKDF2(PRF = AES-CMAC-PRF-128 (RFC 4615), P = passphrase, S = "Thread" ‖ extended PAN ID ‖ network name,
    /// c = 16384, dkLen = 16)`, computed with OpenSSL 3's CMAC.
    ///
    /// - Parameters:
    ///   - passphrase: 6–255 UTF-8 bytes, as OpenThread counts them.
    ///   - networkName: the network name (its UTF-8 bytes, no terminator).
    ///   - extendedPANID: the extended PAN ID.
    /// - Throws: ``DerivationError/passphraseLength(_:)`` or ``DerivationError/crypto(_:)``.
    public static func derive(
        passphrase: String, networkName: NetworkName, extendedPANID: ExtendedPANID
    ) throws(DerivationError) -> PSKc {
        let password = Array(passphrase.utf8)
        guard passphraseLengths.contains(password.count) else { throw .passphraseLength(password.count) }
        let salt = Array("Thread".utf8) + extendedPANID.bytes + networkName.tlvValue
        do throws(CryptoError) {
            let prf = try AESCMACPRF128(key: password)
            // PBKDF2 with dkLen = 16 = the PRF's output: one block, T1 = U1 ^ … ^ Uc, U1 = PRF(P, S ‖ INT(1)).
            var u = try prf.compute(salt + [0, 0, 0, 1])
            var t = u
            for _ in 1..<iterations {
                u = try prf.compute(u)
                for i in 0..<16 { t[i] ^= u[i] }
            }
            guard let pskc = PSKc(bytes: t) else { throw CryptoError(function: "PBKDF2", detail: "short output") }
            return pskc
        } catch {
            throw .crypto(error)
        }
    }
}

/// AES-CMAC-PRF-128 (RFC 4615): AES-CMAC with a key of any length, shortened to 16 bytes by
/// K = AES-CMAC(0¹²⁸, key) when it is not already 16 bytes.
struct AESCMACPRF128 {
    private let cmac: AESCMAC

    /// The PRF keyed with `key` (any length).
    /// - Throws: ``CryptoError`` from OpenSSL.
    init(key: [UInt8]) throws(CryptoError) {
        if key.count == 16 {
            cmac = try AESCMAC(key: key)
        } else {
            let derived = try AESCMAC(key: [UInt8](repeating: 0, count: 16)).authenticate(key)
            cmac = try AESCMAC(key: derived)
        }
    }

    /// The 16-byte PRF output for `message`.
    /// - Throws: ``CryptoError`` from OpenSSL.
    func compute(_ message: [UInt8]) throws(CryptoError) -> [UInt8] { try cmac.authenticate(message) }
}
