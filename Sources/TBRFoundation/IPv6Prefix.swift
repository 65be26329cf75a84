#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An IPv6 prefix, such as the on-link `2001:db8:1::/64` of a LAN or a Thread network's OMR prefix: the
/// address bits beyond the length are zero. The firewall and the host network checks share it.
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

    /// Parses `2001:db8:1::/64` (the address part as `inet_pton(3)` reads it); nil for anything else.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[1].utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let length = Int(parts[1]),
            (0...128).contains(length), let address = Self.parse(String(parts[0]))
        else { return nil }
        self.init(address: address, length: length)
    }

    /// Whether this prefix is link-local (`fe80::/10`).
    public var isLinkLocal: Bool { bytes[0] == 0xFE && bytes[1] & 0xC0 == 0x80 }

    /// Whether every address of `other` is in this prefix: `other` is as long or longer and agrees
    /// with this prefix's first ``length`` bits. `::/0` contains every prefix; a prefix contains itself.
    public func contains(_ other: IPv6Prefix) -> Bool {
        other.length >= length && Self.masked(other.bytes, length) == bytes
    }

    /// `2001:db8:1::/64`, the address in `inet_ntop(3)`'s form.
    public var description: String { Self.format(bytes) + "/\(length)" }

    /// Address order, then the shorter prefix first.
    public static func < (a: IPv6Prefix, b: IPv6Prefix) -> Bool {
        a.bytes == b.bytes ? a.length < b.length : a.bytes.lexicographicallyPrecedes(b.bytes)
    }

    /// `address` with the bits past `length` cleared (16 bytes for IPv6, 4 for IPv4).
    package static func masked(_ address: [UInt8], _ length: Int) -> [UInt8] {
        address.enumerated().map { i, byte in
            let bits = max(0, min(8, length - i * 8))
            return bits == 8 ? byte : byte & UInt8(truncatingIfNeeded: 0xFF << (8 - bits))
        }
    }

    /// The 16 bytes of an IPv6 address in text (`inet_pton(3)`), or nil.
    package static func parse(_ text: String) -> [UInt8]? {
        var address = in6_addr()
        guard inet_pton(AF_INET6, text, &address) == 1 else { return nil }
        return withUnsafeBytes(of: &address) { Array($0) }
    }

    /// An IPv6 address (16 bytes) in `inet_ntop(3)`'s canonical text: `fd11:22::1`.
    package static func format(_ bytes: [UInt8]) -> String {
        precondition(bytes.count == 16, "an IPv6 address is 16 bytes")
        var address = in6_addr()
        withUnsafeMutableBytes(of: &address) { $0.copyBytes(from: bytes) }
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        guard inet_ntop(AF_INET6, &address, &buffer, socklen_t(buffer.count)) != nil else { return "::" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
