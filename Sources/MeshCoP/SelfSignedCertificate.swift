// tbrd's HTTPS API identity, made with the libcrypto MeshCoP already opens (LibCrypto.swift is the one
// place that binds OpenSSL). Nothing from C leaves this file.
internal import CLibCrypto
import FoundationEssentials
internal import TBRFoundation

/// A P-256 key and a self-signed X.509 certificate for it, both PEM: what tbrd serves its HTTPS API
/// with. Clients pin the certificate by its SHA-256 fingerprint (``fingerprint(ofPEM:)``), which tbrd
/// shows (`tbrctl api info`) and publishes (`_tbrd._tcp`, TXT `fp=`).
package struct SelfSignedCertificate: Sendable, Hashable {
    /// The private key, PKCS#8 PEM. A secret: written only to a 0600 file.
    package var privateKeyPEM: String
    /// The certificate, PEM.
    package var certificatePEM: String

    /// A key and certificate as given (read back from files).
    package init(privateKeyPEM: String, certificatePEM: String) {
        self.privateKeyPEM = privateKeyPEM
        self.certificatePEM = certificatePEM
    }

    /// A new key and certificate: subject and issuer `CN=commonName`, valid from an hour ago for
    /// `days`, version 3, a random 63-bit serial number, signed with ECDSA-SHA256.
    /// - Throws: ``CryptoError`` naming the libcrypto function that failed.
    package static func make(commonName: String, days: Int = 3650) throws(CryptoError) -> SelfSignedCertificate {
        let c = try LibCrypto.loaded()
        guard let keyContext = c.keyContextNew(nil, "EC", nil) else { throw LibCrypto.error("EVP_PKEY_CTX_new_from_name", c) }
        defer { c.keyContextFree(keyContext) }
        guard c.keygenInit(keyContext) == 1 else { throw LibCrypto.error("EVP_PKEY_keygen_init", c) }
        guard c.setGroupName(keyContext, "P-256") == 1 else { throw LibCrypto.error("EVP_PKEY_CTX_set_group_name", c) }
        var key: OpaquePointer?
        guard c.generate(keyContext, &key) == 1, let key else { throw LibCrypto.error("EVP_PKEY_generate", c) }
        defer { c.keyFree(key) }

        guard let certificate = c.x509New() else { throw LibCrypto.error("X509_new", c) }
        defer { c.x509Free(certificate) }
        guard c.x509SetVersion(certificate, 2) == 1 else { throw LibCrypto.error("X509_set_version", c) }
        let serial = try LibCrypto.randomBytes(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) } & 0x7FFF_FFFF_FFFF_FFFF
        guard c.asn1IntegerSet(c.x509SerialNumber(certificate), max(serial, 1)) == 1 else { throw LibCrypto.error("ASN1_INTEGER_set_uint64", c) }
        guard c.x509GmtimeAdjust(c.x509NotBefore(certificate), -3600) != nil,
            c.x509GmtimeAdjust(c.x509NotAfter(certificate), days * 86_400) != nil
        else { throw LibCrypto.error("X509_gmtime_adj", c) }
        guard c.x509SetPublicKey(certificate, key) == 1 else { throw LibCrypto.error("X509_set_pubkey", c) }
        let name = c.x509SubjectName(certificate)
        let added = Array(commonName.utf8).withUnsafeBufferPointer { bytes in
            c.x509NameAddEntry(name, "CN", MBSTRING_UTF8, bytes.baseAddress, Int32(bytes.count), -1, 0)
        }
        guard added == 1 else { throw LibCrypto.error("X509_NAME_add_entry_by_txt", c) }
        guard c.x509SetIssuerName(certificate, name) == 1 else { throw LibCrypto.error("X509_set_issuer_name", c) }
        guard c.x509Sign(certificate, key, c.sha256()) > 0 else { throw LibCrypto.error("X509_sign", c) }

        let keyPEM = try pem(c, "PEM_write_bio_PrivateKey") { c.pemWritePrivateKey($0, key, nil, nil, 0, nil, nil) }
        let certificatePEM = try pem(c, "PEM_write_bio_X509") { c.pemWriteCertificate($0, certificate) }
        return SelfSignedCertificate(privateKeyPEM: keyPEM, certificatePEM: certificatePEM)
    }

    /// What `write` writes into a memory BIO, as text.
    private static func pem(_ c: LibCrypto.API, _ function: String, _ write: (OpaquePointer) -> Int32) throws(CryptoError) -> String {
        guard let bio = c.bioNew(c.bioMemory()) else { throw LibCrypto.error("BIO_new", c) }
        defer { _ = c.bioFree(bio) }
        guard write(bio) == 1 else { throw LibCrypto.error(function, c) }
        var data: UnsafeMutablePointer<CChar>?
        let length = tbrd_bio_mem_data(c.bioControl, bio, &data)
        guard length > 0, let data else { throw LibCrypto.error(function, c) }
        return String(decoding: UnsafeRawBufferPointer(start: data, count: length), as: UTF8.self)
    }

    /// The SHA-256 of the first certificate in `pem` (of its DER bytes), as 64 lower-case hex digits: the
    /// fingerprint a client pins; nil when `pem` holds no certificate.
    /// - Throws: ``CryptoError`` when libcrypto cannot be loaded.
    package static func fingerprint(ofPEM pem: String) throws(CryptoError) -> String? {
        guard let der = derOfFirstCertificate(pem) else { return nil }
        return Hex.encode(try LibCrypto.sha256(der))
    }

    /// The DER bytes between the first `BEGIN CERTIFICATE` and `END CERTIFICATE` lines, base64-decoded.
    static func derOfFirstCertificate(_ pem: String) -> [UInt8]? {
        let lines = pem.split(whereSeparator: \.isNewline).map { String($0.filter { !$0.isWhitespace }) }
        guard let begin = lines.firstIndex(of: "-----BEGINCERTIFICATE-----"),
            let end = lines[begin...].firstIndex(of: "-----ENDCERTIFICATE-----")
        else { return nil }
        let body = lines[(begin + 1)..<end].joined()
        guard let data = Data(base64Encoded: body), !data.isEmpty else { return nil }
        return Array(data)
    }
}
