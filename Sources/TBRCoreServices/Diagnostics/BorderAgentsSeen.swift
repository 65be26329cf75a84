package import BorderAgentDiscovery
package import TBRFoundation

/// The Border Agents mDNS showed last, as tbrd's browse of `_meshcop._udp` keeps them
/// (DaemonRuntime+MDNS.swift writes; the doctor, the health monitor, the network directory and credential fetches
/// read): nil
/// until avahi-daemon has answered.
package final class BorderAgentsSeen: Sendable {
    private let agents = Locked<[BorderAgent]?>(nil)
    /// Signalled on each change; the health monitor waits on it (`meshcop-published`).
    package let changed = WakeSignal()

    package init() {}

    /// What was seen last; nil while mDNS has not answered.
    package var all: [BorderAgent]? { agents.withLock { $0 } }

    /// The browse's table changed to `table`.
    package func saw(_ table: [BorderAgent]) {
        agents.withLock { $0 = table }
        changed.signal()
    }
}
