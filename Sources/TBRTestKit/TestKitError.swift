/// A test environment problem (missing tool, daemon that would not start): tests fail with it.
public struct TestKitError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
