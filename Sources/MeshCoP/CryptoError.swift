/// An OpenSSL (libcrypto) call failed: which function, and OpenSSL's reason.
public struct CryptoError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The libcrypto function that failed, e.g. "RAND_bytes".
    public var function: String
    /// OpenSSL's error string, or a note when it gave none.
    public var detail: String

    /// An error from `function` with `detail`.
    public init(function: String, detail: String) {
        self.function = function
        self.detail = detail
    }

    /// "OpenSSL RAND_bytes failed: …".
    public var description: String { "OpenSSL \(function) failed: \(detail)" }
}
