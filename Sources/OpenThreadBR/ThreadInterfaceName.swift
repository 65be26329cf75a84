public import DBus

/// The name of a Thread network interface served by one otbr-agent, e.g. `wpan0`.
///
/// otbr-agent builds its bus name (`io.openthread.BorderRouter.<name>`) and its object path
/// (`/io/openthread/BorderRouter/<name>`) from it, so a usable name must be valid in both: 1–15
/// characters (`IFNAMSIZ` − 1) of `[A-Za-z0-9_]`, not starting with a digit.
public struct ThreadInterfaceName: Hashable, Sendable, Comparable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    /// The interface name, e.g. `wpan0`.
    public let rawValue: String

    /// Why a string cannot be a Thread interface name.
    public struct InvalidName: Error, Equatable, Sendable, CustomStringConvertible {
        /// The rejected text.
        public let text: String
        /// The reason, in a few words.
        public let reason: String
        public var description: String { "\"\(text)\" cannot be a Thread interface name: \(reason)" }
    }

    /// Validates `rawValue`.
    /// - Throws: ``InvalidName`` naming the problem.
    public init(_ rawValue: String) throws(InvalidName) {
        let bytes = Array(rawValue.utf8)
        guard !bytes.isEmpty else { throw InvalidName(text: rawValue, reason: "it is empty") }
        guard bytes.count <= 15 else { throw InvalidName(text: rawValue, reason: "it is longer than 15 characters") }
        guard !(0x30...0x39).contains(bytes[0]) else {
            throw InvalidName(text: rawValue, reason: "it starts with a digit")
        }
        for b in bytes {
            let ok = (0x30...0x39).contains(b) || (0x41...0x5a).contains(b) || (0x61...0x7a).contains(b) || b == 0x5f
            guard ok else {
                throw InvalidName(text: rawValue, reason: "only letters, digits and '_' are allowed")
            }
        }
        self.rawValue = rawValue
    }

    /// A name from a literal known to be valid; traps on an invalid literal (a programming error).
    public init(stringLiteral value: String) {
        do { try self.init(value) } catch { preconditionFailure("\(error)") }
    }

    /// The agent's well-known bus name, `io.openthread.BorderRouter.<name>`.
    public var busName: BusName {
        // Valid by construction: the prefix is a valid bus name and the element is checked above.
        (try? BusName(OTBRNames.busNamePrefix + rawValue)) ?? BusName.bus
    }

    /// The agent's object path, `/io/openthread/BorderRouter/<name>`.
    public var objectPath: ObjectPath {
        (try? ObjectPath(OTBRNames.objectPathPrefix + rawValue)) ?? ObjectPath.root
    }

    /// The interface whose agent owns `busName`, if it is an otbr-agent name.
    public init?(busName: String) {
        guard busName.hasPrefix(OTBRNames.busNamePrefix) else { return nil }
        guard let name = try? ThreadInterfaceName(String(busName.dropFirst(OTBRNames.busNamePrefix.count))) else {
            return nil
        }
        self = name
    }

    public var description: String { rawValue }

    public static func < (a: ThreadInterfaceName, b: ThreadInterfaceName) -> Bool { a.rawValue < b.rawValue }
}

/// The fixed names of otbr-agent's D-Bus API (ot-br-posix `src/dbus/common/constants.hpp`).
public enum OTBRNames {
    /// The interface every agent object implements.
    public static let interface: InterfaceName = "io.openthread.BorderRouter"
    /// The prefix of the agents' well-known bus names; the interface name follows.
    public static let busNamePrefix = "io.openthread.BorderRouter."
    /// The prefix of the agents' object paths; the interface name follows.
    public static let objectPathPrefix = "/io/openthread/BorderRouter/"
    /// The signal an agent sends once, when its object is ready.
    public static let readySignal: MemberName = "Ready"
    /// The prefix of the error names that carry an `otError`.
    public static let errorPrefix = "io.openthread.Error."
}
