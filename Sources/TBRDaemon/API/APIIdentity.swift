import Glibc
import MeshCoP
import TBRFoundation

/// The HTTPS API's TLS identity, kept in the state directory: `api-key.pem` (the P-256 private key) and
/// `api-cert.pem` (its self-signed certificate), both mode 0600, made at the first start with the API
/// on and kept across restarts, so that a client's pin stays valid. ``fingerprint`` is what
/// `tbrctl api info` shows and `_tbrd._tcp` publishes (`fp=`).
struct APIIdentity: Sendable {
    /// The key and certificate, PEM.
    let certificate: SelfSignedCertificate
    /// The SHA-256 of the certificate's DER bytes, 64 lower-case hex digits.
    let fingerprint: String

    static func keyPath(in directory: String) -> String { directory + "/api-key.pem" }
    static func certificatePath(in directory: String) -> String { directory + "/api-cert.pem" }

    /// The identity kept in `directory`, made (and written) when there is none.
    /// - Returns: the identity and whether it was made now.
    /// - Throws: ``APIIdentityError`` when the files cannot be read or written, or libcrypto fails.
    static func loadOrMake(in directory: String, commonName: String) throws(APIIdentityError) -> (APIIdentity, made: Bool) {
        let keyPath = keyPath(in: directory), certificatePath = certificatePath(in: directory)
        if let key = try read(keyPath), let pem = try read(certificatePath) {
            do {
                guard let fingerprint = try SelfSignedCertificate.fingerprint(ofPEM: pem) else {
                    throw APIIdentityError("\(certificatePath) holds no certificate; remove it and \(keyPath) to make a new one")
                }
                return (APIIdentity(certificate: SelfSignedCertificate(privateKeyPEM: key, certificatePEM: pem), fingerprint: fingerprint), false)
            } catch let error as APIIdentityError {
                throw error
            } catch {
                throw APIIdentityError("\(error)")
            }
        }
        let made: SelfSignedCertificate
        let fingerprint: String
        do {
            made = try SelfSignedCertificate.make(commonName: commonName)
            fingerprint = try SelfSignedCertificate.fingerprint(ofPEM: made.certificatePEM) ?? ""
        } catch {
            throw APIIdentityError("cannot make the API's certificate: \(error)")
        }
        try write(made.privateKeyPEM, to: keyPath)
        try write(made.certificatePEM, to: certificatePath)
        return (APIIdentity(certificate: made, fingerprint: fingerprint), true)
    }

    /// The file's text (at most 64 KiB: a key or certificate is far smaller); nil when it does not exist.
    private static func read(_ path: String) throws(APIIdentityError) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw APIIdentityError("cannot read \(path): \(Errno(errno))")
        }
        defer { close(fd) }
        do { return String(decoding: try FileDescriptorIO.readToEnd(fd, limit: 64 * 1024), as: UTF8.self) } catch {
            throw APIIdentityError("cannot read \(path): \(error)")
        }
    }

    /// Writes `text` to `path` (mode 0600), whole or not at all.
    private static func write(_ text: String, to path: String) throws(APIIdentityError) {
        do { try AtomicFile.write(Array(text.utf8), to: path) } catch { throw APIIdentityError("cannot write \(path): \(error)") }
    }
}

/// Why the API's identity is not usable, as one sentence.
struct APIIdentityError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
