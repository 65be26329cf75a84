import TBRFoundation
/// tbrd's host firewall on the host's nftables: ``FirewallRuleset/script()`` fed to `nft -f -` (one
/// atomic transaction touching only `table inet tbrd`) and `nft list table inet tbrd` to read it back,
/// both run in the network namespace tbrd itself runs in; the LAN's on-link prefixes from `getifaddrs`
/// (``LinkAddresses``); address and ruleset changes from the kernel's netlink groups (``AddressMonitor``,
/// ``RulesetMonitor``).
public struct NFTables: HostFirewall {
    /// `nft` as configured: a name looked up on `PATH` (then `/usr/sbin`, `/sbin`) or a path.
    public let tool: String
    /// How long one `nft` run may take before it is killed.
    public let timeout: Duration

    /// A firewall run with `tool` (default `nft`).
    public init(tool: String = "nft", timeout: Duration = .seconds(10)) {
        self.tool = tool
        self.timeout = timeout
    }

    /// Without `nft` an empty ruleset is taken as in place, unread (``FirewallSnapshot/wasRead`` false:
    /// a table an earlier run left cannot be removed, and stays); any other fails with
    /// ``FirewallError/nftNotFound(_:)``.
    public func replace(with ruleset: FirewallRuleset) async throws(FirewallError) -> FirewallSnapshot {
        if ruleset.isEmpty, Subprocess.locate(tool) == nil { return FirewallSnapshot(listing: nil, wasRead: false) }
        let script = try ruleset.script()
        let result = try await run(["-f", "-"], input: Array(script.utf8))
        guard result.status == 0 else { throw .nftFailed(status: result.status, message: Self.firstLines(result.stderr)) }
        return try await snapshot()
    }

    public func isIntact(_ expected: FirewallSnapshot) async throws(FirewallError) -> Bool {
        try await snapshot() == expected
    }

    /// How tbrd's table reads back now.
    /// - Throws: ``FirewallError`` when `nft` cannot be run or fails for another reason than a missing table.
    public func snapshot() async throws(FirewallError) -> FirewallSnapshot {
        let result = try await run(["list", "table", "inet", "tbrd"], input: [])
        if result.status == 0 { return FirewallSnapshot(listing: result.stdout) }
        if result.stderr.contains("No such file or directory") { return FirewallSnapshot(listing: nil) }
        throw .nftFailed(status: result.status, message: Self.firstLines(result.stderr))
    }

    public func linkAddresses(_ interfaces: Set<String>) throws(FirewallError) -> [String: LinkAddresses] {
        try LinkAddresses.read(interfaces)
    }

    public func addressChanges() -> AsyncStream<Void>? { AddressMonitor.changes() }

    public func rulesetChanges() -> AsyncStream<Void>? { RulesetMonitor.changes() }

    private func run(_ arguments: [String], input: [UInt8]) async throws(FirewallError) -> Subprocess.Result {
        guard let path = Subprocess.locate(tool) else {
            throw .nftNotFound(tool.contains("/") ? tool : "\(tool) on PATH, /usr/sbin and /sbin")
        }
        do { return try await Subprocess.run(path, arguments, input: input, timeout: timeout) } catch {
            switch error {
            case .system(let call, let code): throw .system(call, code)
            case .timedOut(let seconds): throw .nftTimedOut(seconds: seconds)
            }
        }
    }

    /// At most three lines of `nft`'s complaint, without the blank ones.
    static func firstLines(_ text: String) -> String {
        text.split(separator: "\n").map { $0.trimmingCharacters(in: " \t") }.filter { !$0.isEmpty }.prefix(3).joined(separator: "; ")
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in set: String) -> String {
        var s = self
        while let f = s.first, set.contains(f) { s.removeFirst() }
        while let l = s.last, set.contains(l) { s.removeLast() }
        return String(s)
    }
}
