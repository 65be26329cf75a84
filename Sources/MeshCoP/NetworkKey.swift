/// The Thread network key (Network Key TLV 5): 16 secret bytes, redacted wherever it is printed or
/// encoded unless secrets are revealed explicitly (``SecretKey128``).
public struct NetworkKey: SecretKey128 {
    /// The 16 key bytes. Handle with care: never log them.
    public let bytes: [UInt8]
    public init(validatedBytes: [UInt8]) { bytes = validatedBytes }
    public static var secretName: String { "network key" }
    public static var typeName: String { "NetworkKey" }
}
