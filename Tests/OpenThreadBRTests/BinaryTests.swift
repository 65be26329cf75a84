import DBus
import Foundation
import OpenThreadBR
import TBRTestKit
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The built `otbr-sim` binary: its command line, and two instances on one bus poked by independent
/// clients (dbus-send, busctl) and by the typed client.
@Suite struct BinaryTests {
    func run(_ arguments: [String]) async throws -> ProcessResult {
        try await ProcessRunner.run(try Executables.product("otbr-sim"), arguments)
    }

    @Test func helpListsEveryOption() async throws {
        let r = try await run(["--help"])
        #expect(r.status == 0)
        for option in ["--bus", "--interface", "--dataset", "--no-epskc", "--no-telemetry", "--no-nat64", "--dhcp6-pd",
                       "--no-feature-flags", "--no-dns-upstream", "--infra-interface", "--vendor", "--product", "--role-delay",
                       "--restart-delay", "--nat64-delay", "--pending-delay", "--disconnect-guard", "--help"] {
            #expect(r.stdout.contains(option), "help lacks \(option)")
        }
        #expect(try await run(["--version"]).stdout.hasPrefix("otbr-sim "))
    }

    @Test func usageErrorsExit64() async throws {
        for bad in [["--role-delay", "soon"], ["--pending-delay", "-1"], ["--disconnect-guard", "2s"], ["--interface", "0wpan"], ["--dataset", "0e"], ["--frob"],
                    ["--interface", "wpan0", "--interface", "wpan0"]] {
            let r = try await run(bad)
            #expect(r.status == 64, "\(bad)")
            #expect(r.stderr.hasPrefix("otbr-sim: "), "\(bad)")
        }
    }

    @Test func anUnreachableBusExits69() async throws {
        let r = try await run(["--bus", "unix:path=/nonexistent/otbr-sim-test"])
        #expect(r.status == 69)
        #expect(r.stderr.contains("cannot start io.openthread.BorderRouter.wpan0"))
    }

    func start(_ bus: PrivateBus, _ connection: Connection, _ interfaces: [ThreadInterfaceName], _ more: [String] = [])
        async throws -> TestProcess
    {
        try await startSimulatorBinary(bus, connection, interfaces, more)
    }

    @Test func twoInstancesOnOneBusAnswerIndependentClients() async throws {
        try await withPrivateBus { bus throws in
            let connection = try await Connection(bus: .address(bus.address))
            let p0 = try await start(bus, connection, ["wpan0"], ["--role-delay", "50", "--vendor", "Acme", "--product", "Hub"])
            let p1 = try await start(bus, connection, ["wpan1"], ["--no-telemetry", "--dataset", hex(sampleDataset)])
            #expect(try await AgentDiscovery(connection: connection).agents() == ["wpan0", "wpan1"])

            // dbus-send: exact error names.
            let send0 = DBusSend(address: bus.address, interfaceName: "wpan0")
            let send1 = DBusSend(address: bus.address, interfaceName: "wpan1")
            #expect(try await send0.call("ActivateEphemeralKeyMode", ["uint32:600001"]).errorName == "io.openthread.Error.InvalidArgs")
            #expect(try await send0.get("ActiveDatasetTlvs").errorName == "io.openthread.Error.NotFound")
            #expect(try await send1.get("TelemetryData").errorName == "io.openthread.Error.NotImplemented")
            #expect(try await send1.get("DeviceRole").stdout.contains("\"leader\""))
            let vendor = try await send0.call(
                "Get", ["string:io.tbrd.Simulator1", "string:VendorName"], interface: "org.freedesktop.DBus.Properties",
                path: "/io/tbrd/Simulator/wpan0")
            #expect(vendor.stdout.contains("\"Acme\""))

            // busctl: property writes with arrays (dbus-send cannot put an array in a variant).
            let busctl = try Executables.find("busctl", package: "systemd")
            let set = try await ProcessRunner.run(
                busctl,
                ["--address=\(bus.address)", "set-property", "io.openthread.BorderRouter.wpan0",
                 "/io/openthread/BorderRouter/wpan0", "io.openthread.BorderRouter", "ActiveDatasetTlvs", "ay",
                 "\(sampleDataset.count)"] + sampleDataset.map { String($0) })
            #expect(set.status == 0, "\(set.stderr)")
            let role = try await ProcessRunner.run(
                busctl,
                ["--address=\(bus.address)", "get-property", "io.openthread.BorderRouter.wpan0",
                 "/io/openthread/BorderRouter/wpan0", "io.openthread.BorderRouter", "DeviceRole"])
            #expect(role.stdout == "s \"disabled\"\n")

            // The typed client: attach wpan0, crash wpan1 and watch it come back.
            let c0 = BorderRouterAgent(connection: connection, interfaceName: "wpan0")
            try await c0.attach()
            #expect(try await c0.deviceRole() == .leader)
            let c1 = BorderRouterAgent(connection: connection, interfaceName: "wpan1")
            let ready = try await c1.readySignals()
            let crash = try await send1.call("Crash", ["uint32:100"], interface: "io.tbrd.Simulator1", path: "/io/tbrd/Simulator/wpan1")
            #expect(crash.status == 0)
            #expect(await collect(ready, count: 1).count == 1)
            try await eventually("wpan1 resumed its network", wakingOn: c1.remote.wakeups) { try await c1.deviceRole() == .leader }
            #expect(try await c1.activeDatasetTLVs() == sampleDataset)
            await connection.close()
            #expect(await p0.terminate() == 0)
            #expect(await p1.terminate() == 0)
        }
    }

    @Test func sigtermStopsCleanly() async throws {
        try await withPrivateBus { bus throws in
            let connection = try await Connection(bus: .address(bus.address))
            let p = try await start(bus, connection, ["wpan3", "wpan4"])
            #expect(try await AgentDiscovery(connection: connection).agents() == ["wpan3", "wpan4"])
            #expect(await p.terminate(signal: SIGTERM) == 0)
            try await eventually("the names are gone") { try await AgentDiscovery(connection: connection).agents().isEmpty }
            await connection.close()
        }
    }
}
