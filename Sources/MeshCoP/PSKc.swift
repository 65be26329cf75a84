/// The pre-shared key for the commissioner (PSKc TLV 4): 16 secret bytes, derived from the
/// commissioning passphrase with ``PSKc/derive(passphrase:networkName:extendedPANID:)``; redacted
/// wherever it is printed or encoded unless secrets are revealed explicitly (``SecretKey128``).
public struct PSKc: SecretKey128 {
    /// The 16 PSKc bytes. Handle with care: never log them.
    public let bytes: [UInt8]
    public init(validatedBytes: [UInt8]) { bytes = validatedBytes }
    public static var secretName: String { "PSKc" }
    public static var typeName: String { "PSKc" }
}
