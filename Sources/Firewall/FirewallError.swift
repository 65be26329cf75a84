import TBRFoundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Why the host firewall could not be read or changed, as one sentence.
public enum FirewallError: Error, Hashable, Sendable, CustomStringConvertible {
    /// `nft` is not installed where it was looked for.
    case nftNotFound(String)
    /// `nft` ran and failed: its exit status and what it printed on standard error.
    case nftFailed(status: Int32, message: String)
    /// `nft` did not finish in time and was killed.
    case nftTimedOut(seconds: Int)
    /// A system call failed (its name and `errno`).
    case system(String, Int32)
    /// A value cannot go into a ruleset (an interface name nftables would read otherwise).
    case invalidRuleset(String)

    public var description: String {
        switch self {
        case .nftNotFound(let where_): "nft is not installed (looked for \(where_); Debian package nftables, or set nft-path)"
        case .nftFailed(let status, let message):
            "nft exited with status \(status)" + (message.isEmpty ? "" : ": \(message)")
        case .nftTimedOut(let seconds): "nft did not finish within \(seconds) s and was killed"
        case .system(let call, let code): "\(call) failed: \(Errno(code).description)"
        case .invalidRuleset(let why): "cannot build the nftables ruleset: \(why)"
        }
    }
}
