/// A DNS-SD service type such as `_meshcop._udp` (RFC 6763 §7): an underscore, a service name of 1–15
/// letters, digits and hyphens, then `._udp` or `._tcp`.
public struct ServiceType: Hashable, Sendable, Comparable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The type as written, e.g. `_meshcop._udp`.
    public let rawValue: String

    /// Validates `text`.
    /// - Throws: ``MDNSError`` (`invalidArgument`) naming what is wrong.
    public init(_ text: String) throws(MDNSError) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[1] == "_udp" || parts[1] == "_tcp" else {
            throw MDNSError(.invalidArgument, "invalid DNS-SD service type \"\(text)\": it must end in ._udp or ._tcp")
        }
        let name = parts[0].utf8
        guard name.first == UInt8(ascii: "_"), (2...16).contains(name.count),
            name.dropFirst().allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x2D })
        else {
            throw MDNSError(.invalidArgument, "invalid DNS-SD service type \"\(text)\": an underscore and 1–15 letters, digits or hyphens come first")
        }
        rawValue = text
    }

    /// A type known to be valid; an invalid literal is a programming error and traps.
    public init(stringLiteral value: String) {
        do { try self.init(value) } catch { preconditionFailure(error.message) }
    }

    /// Border Agents (Thread MeshCoP, `border_agent_txt_data.cpp`).
    public static let meshcop: ServiceType = "_meshcop._udp"
    /// A Border Agent's ephemeral-key (ePSKc) service, published only while a key is active.
    public static let meshcopEphemeral: ServiceType = "_meshcop-e._udp"

    public var description: String { rawValue }

    public static func < (a: ServiceType, b: ServiceType) -> Bool { a.rawValue < b.rawValue }
}
