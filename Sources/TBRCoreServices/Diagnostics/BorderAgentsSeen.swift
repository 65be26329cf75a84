package import BorderAgentDiscovery
import TBRFoundation

/// The Border Agents mDNS showed last, as tbrd's browse of `_meshcop._udp` keeps them
/// (DaemonRuntime+MDNS.swift writes; the doctor, the network directory and credential fetches read): nil
/// until avahi-daemon has answered.
package final class BorderAgentsSeen: Sendable {
    private let agents = Locked<[BorderAgent]?>(nil)

    package init() {}

    /// What was seen last; nil while mDNS has not answered.
    package var all: [BorderAgent]? { agents.withLock { $0 } }

    /// The browse's table changed to `table`.
    package func saw(_ table: [BorderAgent]) { agents.withLock { $0 = table } }
}
