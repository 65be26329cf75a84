#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An IPv6 prefix, such as the on-link `2001:db8:1::/64` of a LAN: the address bits beyond the length
/// are zero.
public struct IPv6Prefix: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The 16 address bytes (network byte order), host bits cleared.
    public let bytes: [UInt8]
    /// The prefix length, 0…128.
    public let length: Int

    /// The prefix of `length` bits of `address` (16 bytes); the other bits are cleared.
    /// - Precondition: 16 bytes, length 0…128 (callers build these from the kernel's values).
    public init(address: [UInt8], length: Int) {
        precondition(address.count == 16 && (0...128).contains(length), "an IPv6 prefix is 16 bytes and 0…128 bits")
        bytes = Self.masked(address, length)
        self.length = length
    }

    /// Parses `2001:db8:1::/64` (the address part as `inet_pton(3)` reads it).
    public init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let length = Int(parts[1]), (0...128).contains(length),
            let address = Self.parse(String(parts[0]))
        else { return nil }
        self.init(address: address, length: length)
    }

    /// Whether `other` lies inside this prefix (it is as long or longer and starts with these bits).
    public func contains(_ other: IPv6Prefix) -> Bool {
        other.length >= length && Self.masked(other.bytes, length) == bytes
    }

    /// Whether this prefix is link-local (`fe80::/10`).
    public var isLinkLocal: Bool { bytes[0] == 0xFE && bytes[1] & 0xC0 == 0x80 }

    /// `2001:db8:1::/64`, the address in `inet_ntop(3)`'s form.
    public var description: String { Self.format(bytes) + "/\(length)" }

    public static func < (a: IPv6Prefix, b: IPv6Prefix) -> Bool {
        a.bytes == b.bytes ? a.length < b.length : a.bytes.lexicographicallyPrecedes(b.bytes)
    }

    static func masked(_ address: [UInt8], _ length: Int) -> [UInt8] {
        address.enumerated().map { i, byte in
            let bits = max(0, min(8, length - i * 8))
            return bits == 8 ? byte : byte & UInt8(truncatingIfNeeded: 0xFF << (8 - bits))
        }
    }

    static func parse(_ text: String) -> [UInt8]? {
        var address = in6_addr()
        guard inet_pton(AF_INET6, text, &address) == 1 else { return nil }
        return withUnsafeBytes(of: &address) { Array($0) }
    }

    static func format(_ bytes: [UInt8]) -> String {
        var address = in6_addr()
        withUnsafeMutableBytes(of: &address) { $0.copyBytes(from: bytes) }
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        guard inet_ntop(AF_INET6, &address, &buffer, socklen_t(buffer.count)) != nil else { return "::" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

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

    public static func < (a: IPv4Subnet, b: IPv4Subnet) -> Bool {
        a.bytes == b.bytes ? a.length < b.length : a.bytes.lexicographicallyPrecedes(b.bytes)
    }
}
