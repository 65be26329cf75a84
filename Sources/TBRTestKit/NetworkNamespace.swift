import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Network namespaces the test kit makes (`ip netns`).
enum NetworkNamespace {
    /// Deletes namespace `name` if it exists, synchronously and without Swift concurrency (it runs from
    /// `deinit`s and cleanup paths too): `ip netns del` spawned and waited for. Failures are ignored.
    static func delete(_ name: String) {
        guard FileManager.default.fileExists(atPath: "/run/netns/" + name) else { return }
        let ip = (try? Executables.find("ip", package: "iproute2")) ?? "/usr/sbin/ip"
        var pid: pid_t = 0
        let words: [String] = [ip, "netns", "del", name]
        let argv = words.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        guard posix_spawn(&pid, ip, nil, nil, argv, environ) == 0 else { return }
        var status: Int32 = 0
        waitpid(pid, &status, 0)
    }
}
