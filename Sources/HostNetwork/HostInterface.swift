/// A network interface of this host, as sysfs shows it in `/sys/class/net/NAME/` (the network
/// namespace of the process that mounted that sysfs: `ip netns exec` mounts one of the namespace's).
public struct HostInterface: Sendable, Equatable {
    /// Its name (`eth0`, `wpan0`).
    public var name: String
    /// Its index (`ifindex`), the kernel's number for it.
    public var index: Int
    /// Whether it is up: administratively (`IFF_UP` in `flags`) and in its operational state
    /// (`operstate` is `up`, or `unknown` as for drivers that do not track it, such as `lo`); an
    /// interface without carrier (`lowerlayerdown`, `down`) or `dormant` is not.
    public var isUp: Bool
    /// Whether it is a loopback interface (`IFF_LOOPBACK`).
    public var isLoopback: Bool

    /// An interface from its parts.
    /// - Parameters:
    ///   - name: its name.
    ///   - index: its index.
    ///   - isUp: whether it is up.
    ///   - isLoopback: whether it is a loopback interface.
    public init(name: String, index: Int, isUp: Bool, isLoopback: Bool) {
        self.name = name
        self.index = index
        self.isUp = isUp
        self.isLoopback = isLoopback
    }

    /// The interfaces under `root`, by index, read now. An entry that is not an interface directory
    /// (such as `bonding_masters`) or that vanishes while it is read is left out; no `root`, no
    /// interfaces.
    /// - Parameter root: the directory of the interfaces' directories.
    public static func list(root: String = "/sys/class/net") -> [HostInterface] {
        let interfaces = (SystemFiles.entries(of: root) ?? []).compactMap { name in read(name, root: root) }
        return interfaces.sorted { ($0.index, $0.name) < ($1.index, $1.name) }
    }

    /// `IFF_UP` and `IFF_LOOPBACK` (linux/if.h).
    private static let up = 0x1, loopback = 0x8

    /// The interface in `root/name`, or nil when it is not one.
    private static func read(_ name: String, root: String) -> HostInterface? {
        guard InterfaceNameRule.problem(with: name.utf8) == nil else { return nil }
        func text(_ file: String) -> String? {
            guard let bytes = try? SystemFiles.read(root + "/" + name + "/" + file, limit: 256) else { return nil }
            let text = String(decoding: bytes, as: UTF8.self)
            return text.hasSuffix("\n") ? String(text.dropLast()) : text
        }
        guard let index = text("ifindex").flatMap({ Int($0) }), let flagText = text("flags"), flagText.hasPrefix("0x"),
            let flags = Int(flagText.dropFirst(2), radix: 16), let state = text("operstate")
        else { return nil }
        return HostInterface(
            name: name, index: index, isUp: flags & up != 0 && (state == "up" || state == "unknown"),
            isLoopback: flags & loopback != 0)
    }
}
