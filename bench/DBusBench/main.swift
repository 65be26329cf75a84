// Round trips through a private bus with tbrd's DBus layer; bench/dbus.sh runs it beside bench/dbus-raw.c.
// Usage: dbus-bench ADDRESS CALLS WINDOW   (prints calls per second)
import DBus
#if canImport(Glibc)
import Glibc
#endif

let args = CommandLine.arguments
guard args.count >= 4, let calls = Int(args[2]), let window = Int(args[3]) else {
    print("usage: dbus-bench ADDRESS CALLS WINDOW")
    exit(64)
}
let connection = try await Connection(bus: .address(args[1]), maxCallsInFlight: max(window, 1))
let clock = ContinuousClock()
let start = clock.now
@Sendable func once() async throws {
    _ = try await connection.call(
        destination: .bus, path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus", member: "GetNameOwner",
        arguments: [.string("org.freedesktop.DBus")])
}
if window <= 1 {
    // Off the main actor, as a daemon's tasks are: the main queue would add a thread hop per call.
    try await Task.detached { for _ in 0..<calls { try await once() } }.value
} else {
    try await withThrowingTaskGroup(of: Void.self) { group in
        for _ in 0..<window {
            group.addTask { for _ in 0..<(calls / window) { try await once() } }
        }
        try await group.waitForAll()
    }
}
let elapsed = clock.now - start
let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
print(Int(Double(calls / window * window) / seconds))
await connection.close()
