import Foundation
import MDNS
import MeshCoP
import Synchronization
import TBRTestKit
import Testing
import TBRFoundation

extension LANTests {
    /// The MDNS module in this process against a real avahi-daemon: publish, browse and resolve, a TXT
    /// update, a withdrawal, and the daemon killed and started again under a live client.
    ///
    /// avahi-client finds avahi-daemon on the system bus, whose address libdbus reads once per process; so
    /// this is the only test that uses `MDNSClient` in the test process (the others run the built programs).
    @Suite struct MDNSClientTests {
        /// The events a browse delivered, in order.
        final class EventLog: Sendable {
            private let events = Locked<[ServiceEvent]>([])
            func append(_ event: ServiceEvent) { events.withLock { $0.append(event) } }
            func withLock<R>(_ body: ([ServiceEvent]) -> R) -> R { events.withLock { body($0) } }
        }

        static func txt(vendor: String) -> [UInt8] {
            MeshCoPTXTRecord(entries: [TXTEntry(key: "rv", text: "1"), TXTEntry(key: "vn", text: vendor)]).wireFormat
        }

        @Test func publishedServicesAreBrowsedUpdatedWithdrawnAndFollowedAcrossADaemonRestart() async throws {
            try await withAvahiLAN { lan in
                let host = lan.hosts[1]
                setenv("DBUS_SYSTEM_BUS_ADDRESS", host.bus.address, 1)
                let client = MDNSClient(retryDelay: .milliseconds(200))
                do {
                    try await client.connect(requireDaemon: true)
                } catch {
                    unsetenv("DBUS_SYSTEM_BUS_ADDRESS")
                    throw error
                }
                // libdbus has read the address now; children of other tests must not inherit it.
                unsetenv("DBUS_SYSTEM_BUS_ADDRESS")
                let events = EventLog()
                let stream = await client.browse(.meshcop)
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask { for await event in stream { events.append(event) } }
                    func count() -> Int { events.withLock { $0.count } }

                    let registration = ServiceRegistration(name: "Test Agent #0001", type: .meshcop, port: 49999, txt: Self.txt(vendor: "One"))
                    let id = await client.publish(registration)
                    try await eventually("the service is browsed and resolved", timeout: .seconds(10)) { count() == 1 }
                    guard case .added(let service) = events.withLock({ $0[0] }) else { Issue.record("not added"); return }
                    #expect(service.name == "Test Agent #0001" && service.port == 49999 && service.isLocal)
                    #expect(service.addresses == [host.address])
                    #expect(MeshCoPTXTRecord(wireFormat: service.txt).vendorName == "One")
                    #expect(await client.publishedName(id) == "Test Agent #0001")

                    // A new TXT record alone is announced in place: one update.
                    var renamed = registration
                    renamed.txt = Self.txt(vendor: "Two")
                    await client.update(id, to: renamed)
                    try await eventually("the update arrives", timeout: .seconds(10)) {
                        events.withLock { $0.contains { if case .updated(let s) = $0 { MeshCoPTXTRecord(wireFormat: s.txt).vendorName == "Two" } else { false } } }
                    }

                    // avahi-daemon is killed and comes back: the client publishes and browses again.
                    let before = count()
                    await host.stopAvahi()
                    try await eventually("the client noticed", timeout: .seconds(5)) { await !client.isDaemonRunning }
                    try await host.startAvahi()
                    try await eventually("the client is connected again", timeout: .seconds(10)) { await client.isDaemonRunning }
                    // Found again, unchanged: no removal (a second browser sees it back as well).
                    let again = await client.browse(.meshcop)
                    var iterator = again.makeAsyncIterator()
                    let seen = await iterator.next()
                    #expect(seen?.service?.name == "Test Agent #0001")
                    #expect(events.withLock { $0.dropFirst(before).allSatisfy { if case .removed = $0 { false } else { true } } }, "\(events.withLock { Array($0.dropFirst(before)) })")

                    await client.withdraw(id)
                    try await eventually("the withdrawal arrives", timeout: .seconds(10)) {
                        events.withLock { $0.contains { if case .removed(_, .withdrawn) = $0 { true } else { false } } }
                    }

                    // A consumer that falls behind loses no end: what did not fit comes back as a snapshot.
                    func agent(_ n: Int) -> ServiceRegistration {
                        ServiceRegistration(name: "Test Agent #000\(n)", type: .meshcop, port: UInt16(49990 + n), txt: Self.txt(vendor: "N"))
                    }
                    func removed(_ n: Int) -> Bool {
                        events.withLock { $0.contains { if case .removed(let s, _) = $0 { s.name == "Test Agent #000\(n)" } else { false } } }
                    }
                    let third = await client.publish(agent(3))
                    let slow = await client.browse(.meshcop, bufferLimit: 2)
                    var reader = slow.makeAsyncIterator()
                    #expect(await reader.next()?.service?.name == "Test Agent #0003")
                    // Not reading now: two events fill the buffer, the third (a removal) does not fit.
                    let fourth = await client.publish(agent(4))
                    let fifth = await client.publish(agent(5))
                    try await eventually("both are browsed", timeout: .seconds(10)) {
                        events.withLock { $0.filter { if case .added(let s) = $0 { s.name >= "Test Agent #0004" } else { false } }.count } == 2
                    }
                    await client.withdraw(third)
                    try await eventually("the removal happened", timeout: .seconds(10)) { removed(3) }
                    #expect(slow.droppedCount >= 1)
                    let first = await reader.next(), second = await reader.next(), snapshot = await reader.next()
                    #expect(Set([first?.service?.name, second?.service?.name]) == ["Test Agent #0004", "Test Agent #0005"], "added in whichever order they resolved")
                    guard case .resynchronized(let services)? = snapshot else { Issue.record("no snapshot: \(String(describing: snapshot))"); return }
                    #expect(services.map(\.name) == ["Test Agent #0004", "Test Agent #0005"], "#0003 is gone")
                    await client.withdraw(fourth)
                    await client.withdraw(fifth)
                    group.cancelAll()
                }
                await client.close()
            }
        }
    }
}
