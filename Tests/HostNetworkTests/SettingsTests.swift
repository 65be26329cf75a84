import HostNetwork
import TBRTestKit
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `InterfaceIPv6Settings`: the files of `/proc/sys/net/ipv6/conf/IF/` read (this namespace's `lo`,
/// read only, and trees written by the tests) and what they mean for Route Information Options.
@Suite struct SettingsTests {
    @Test func theLoopbackSettingsOfThisNamespaceAreWhatSysctlSays() async throws {
        let settings = try InterfaceIPv6Settings.read(interface: "lo")
        let sysctl = try Executables.find("sysctl", package: "procps")
        func value(_ file: String) async throws -> Int? {
            let result = try await ProcessRunner.run(sysctl, ["-n", "net.ipv6.conf.lo.\(file)"])
            return result.status == 0 ? Int(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) : nil
        }
        #expect(settings.acceptRA == (try await value("accept_ra")))
        #expect(settings.forwarding == (try await value("forwarding")))
        #expect(settings.acceptRARouteInfoMaxPrefixLength == (try await value("accept_ra_rt_info_max_plen")))
        #expect(settings.acceptRARouteInfoMinPrefixLength == (try await value("accept_ra_rt_info_min_plen")))
        #expect(settings.acceptRARouterPreference == (try await value("accept_ra_rtr_pref")))
    }

    /// One interface directory: (accept_ra, forwarding, max plen, min plen, rtr_pref), nil for a file
    /// left out; then whether RAs are processed and whether a /64 Route Information Option is used.
    @Test(arguments: [
        (("1", "0", "0", "0", "1"), true, false),  // the kernel's defaults: RAs yes, route information no
        (("1", "0", "64", "0", "1"), true, true),
        (("1\n", "0\n", "128\n", "0\n", "1\n"), true, true),
        (("0", "0", "64", "0", "1"), false, false),  // accept_ra 0
        (("1", "1", "64", "0", "1"), false, false),  // a router ignores RAs…
        (("2", "1", "64", "0", "1"), true, true),  // …unless accept_ra is 2
        (("2", "0", "64", "0", "1"), true, true),
        (("3", "0", "64", "0", "1"), true, true),  // the kernel takes any non-zero value
        (("-1", "1", "64", "0", "1"), false, false),
        (("1", "0", "63", "0", "1"), true, false),  // /64 is longer than the maximum
        (("1", "0", "64", "65", "1"), true, false),  // /64 is shorter than the minimum
        (("1", "0", "64", "64", "1"), true, true),
        (("1", "0", "64", "0", "0"), true, false),  // router preferences off: no route information
        (("1", "0", "64", nil, "1"), true, true),
        (("1", "0", nil, nil, "1"), true, false),  // a kernel without CONFIG_IPV6_ROUTE_INFO
        (("1", "0", nil, nil, nil), true, false),  // …nor CONFIG_IPV6_ROUTER_PREF
    ] as [((String?, String?, String?, String?, String?), Bool, Bool)])
    func settingsFromATreeSayWhetherOMRRoutesAreLearned(
        files: (String?, String?, String?, String?, String?), learns: Bool, accepts: Bool
    ) throws {
        let tree = try FileTree()
        defer { tree.remove() }
        let values = [files.0, files.1, files.2, files.3, files.4]
        var given: [String: String] = [:]
        for (name, value) in zip(InterfaceIPv6Settings.fileNames, values) {
            guard let value else { continue }
            try tree.write("eth0/" + name, value)
            given[name] = value
        }
        let settings = try InterfaceIPv6Settings.read(interface: "eth0", root: tree.root.path)
        let number = { (text: String?) in text.flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) } }
        #expect(settings == InterfaceIPv6Settings(
            acceptRA: number(files.0)!, forwarding: number(files.1)!, acceptRARouteInfoMaxPrefixLength: number(files.2),
            acceptRARouteInfoMinPrefixLength: number(files.3), acceptRARouterPreference: number(files.4)))
        #expect(settings.learnsRoutesFromRA == learns)
        #expect(settings.acceptsOMRRoutes == accepts)
        #expect(try InterfaceIPv6Settings.parse(files: given) == settings)
    }

    /// A tree where `../outside` leads to a readable interface directory: a name that is not plain is
    /// refused before anything is read; `all` and `default` are plain names.
    @Test func aNameThatIsNotAPlainInterfaceNameIsRefusedBeforeAnyFileIsRead() throws {
        let tree = try FileTree()
        defer { tree.remove() }
        for directory in ["conf/all", "conf/default", "outside", "conf/eth0"] {
            try tree.write(directory + "/accept_ra", "1")
            try tree.write(directory + "/forwarding", "0")
        }
        let root = tree.root.path + "/conf"
        for name in ["../outside", "", ".", "..", "eth0/", "a/b", "sixteen-bytes-ab", "eth 0", "eth0\n", "eth\u{0}0", "eth0:1", "\u{7F}"] {
            #expect(performing: { try InterfaceIPv6Settings.read(interface: name, root: root) }, throws: { error in
                guard let error = error as? HostNetworkError, case .invalidInterfaceName(let refused, _) = error.reason else { return false }
                return refused == name && error.file == nil
            })
        }
        for name in ["all", "default", "eth0", "fifteen-bytes-a"] where name != "fifteen-bytes-a" {
            #expect(try InterfaceIPv6Settings.read(interface: name, root: root).acceptRA == 1)
        }
        #expect(performing: { try InterfaceIPv6Settings.read(interface: "fifteen-bytes-a", root: root) }, throws: { error in
            (error as? HostNetworkError)?.reason == .noSuchInterface("fifteen-bytes-a")
        })
    }

    @Test func eachProblemIsAnErrorNamingTheFile() throws {
        let tree = try FileTree()
        defer { tree.remove() }
        let root = tree.root.path
        func failure(_ interface: String) -> HostNetworkError? {
            do {
                _ = try InterfaceIPv6Settings.read(interface: interface, root: root)
                return nil
            } catch {
                return error
            }
        }
        #expect(failure("eth9")?.reason == .noSuchInterface("eth9"))
        #expect(failure("eth9")?.description == "no interface \"eth9\" with IPv6 on this host (\(root)/eth9 does not exist)")
        try tree.write("eth0/accept_ra", "1\n")
        #expect(failure("eth0") == HostNetworkError(.missing, file: root + "/eth0/forwarding"))
        #expect(failure("eth0")?.description == "\(root)/eth0/forwarding is missing")
        for (text, shown) in [("yes\n", "\"yes\\n\""), ("+1", "\"+1\""), ("", "\"\""), ("1 2", "\"1 2\""), ("0x1", "\"0x1\"")] {
            try tree.write("eth0/forwarding", text)
            #expect(failure("eth0")?.description == "\(root)/eth0/forwarding: \(shown) is not an integer")
        }
        try tree.write("eth0/forwarding", " 0 \n")
        try tree.write("eth0/accept_ra_rt_info_max_plen", String(repeating: "6", count: 300))
        #expect(failure("eth0") == HostNetworkError(.tooLarge(limit: 256), file: root + "/eth0/accept_ra_rt_info_max_plen"))
        try tree.write("eth0/accept_ra_rt_info_max_plen", "99999999999999999999")
        #expect(failure("eth0")?.reason == .malformed("\"99999999999999999999\" is not an integer"))
        try tree.directory("eth0/accept_ra_rt_info_min_plen")
        try tree.write("eth0/accept_ra_rt_info_max_plen", "64")
        #expect(failure("eth0") == HostNetworkError(.unreadable(errno: EISDIR), file: root + "/eth0/accept_ra_rt_info_min_plen"))
        #expect(performing: { try InterfaceIPv6Settings.parse(files: ["accept_ra": "1"]) }, throws: { error in
            String(describing: error) == "forwarding is missing"
        })
    }
}
