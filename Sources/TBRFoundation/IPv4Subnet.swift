/// An IPv4 subnet, such as the LAN's `192.0.2.0/24`: the address bits beyond the length are zero.
public struct IPv4Subnet: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The 4 address bytes (network byte order), host bits cleared.
    public let bytes: [UInt8]
    /// The prefix length, 0…32.
    public let length: Int

    /// The subnet of `length` bits of `address` (4 bytes); the other bits are cleared.
    /// - Precondition: 4 bytes, length 0…32.
    public init(address: [UInt8], length: Int) {
        precondition(address.count == 4 && (0...32).contains(length), "an IPv4 subnet is 4 bytes and 0…32 bits")
        bytes = IPv6Prefix.masked(address, length)
        self.length = length
    }

    /// Parses `192.0.2.0/24`.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let length = Int(parts[1]), (0...32).contains(length) else { return nil }
        let octets = parts[0].split(separator: ".", omittingEmptySubsequences: false).compactMap { UInt8($0) }
        guard octets.count == 4, parts[0].split(separator: ".", omittingEmptySubsequences: false).count == 4 else { return nil }
        self.init(address: octets, length: length)
    }

    /// `192.0.2.0/24`.
    public var description: String { bytes.map(String.init).joined(separator: ".") + "/\(length)" }

    /// Address order, then the shorter subnet first.
    public static func < (a: IPv4Subnet, b: IPv4Subnet) -> Bool {
        a.bytes == b.bytes ? a.length < b.length : a.bytes.lexicographicallyPrecedes(b.bytes)
    }
}
