import HostNetwork
import Testing

/// `HostInterface.list`: the interfaces of a sysfs `class/net` directory (this namespace's, read only,
/// and trees written by the tests).
@Suite struct InterfaceTests {
    @Test func thisNamespacesLoopbackIsListed() throws {
        let interfaces = HostInterface.list()
        #expect(interfaces.contains(HostInterface(name: "lo", index: 1, isUp: true, isLoopback: true)), "\(interfaces)")
        #expect(interfaces.map(\.index) == interfaces.map(\.index).sorted())
        #expect(interfaces.filter(\.isLoopback).map(\.name) == ["lo"])
    }

    @Test func aTreeIsListedByIndexLeavingOutWhatIsNotAnInterface() throws {
        let tree = try FileTree()
        defer { tree.remove() }
        let entries: [(String, String, String, String)] = [
            ("lo", "1\n", "0x9\n", "unknown\n"),
            ("eth0", "2\n", "0x1003\n", "up\n"),
            ("wpan0", "7\n", "0x1003\n", "dormant\n"),  // up, but dormant: not up
            ("veth1", "5\n", "0x1003\n", "lowerlayerdown\n"),  // up, no carrier
            ("veth2", "4\n", "0x1002\n", "down\n"),  // administratively down
            ("dummy0", "3\n", "0x82\n", "unknown\n"),  // down, though its state is unknown
            ("broken", "x\n", "0x1003\n", "up\n"),  // not an index
            ("noflags", "9\n", "1003\n", "up\n"),  // flags without 0x
        ]
        for (name, index, flags, state) in entries {
            try tree.write(name + "/ifindex", index)
            try tree.write(name + "/flags", flags)
            try tree.write(name + "/operstate", state)
        }
        try tree.write("bonding_masters", "\n")
        try tree.write("vanished/ifindex", "8\n")
        #expect(HostInterface.list(root: tree.root.path) == [
            HostInterface(name: "lo", index: 1, isUp: true, isLoopback: true),
            HostInterface(name: "eth0", index: 2, isUp: true, isLoopback: false),
            HostInterface(name: "dummy0", index: 3, isUp: false, isLoopback: false),
            HostInterface(name: "veth2", index: 4, isUp: false, isLoopback: false),
            HostInterface(name: "veth1", index: 5, isUp: false, isLoopback: false),
            HostInterface(name: "wpan0", index: 7, isUp: false, isLoopback: false),
        ])
        #expect(HostInterface.list(root: tree.root.path + "/nonexistent") == [])
    }
}
