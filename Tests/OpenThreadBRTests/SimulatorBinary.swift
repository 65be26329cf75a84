import DBus
import Foundation
import OpenThreadBR
import TBRTestKit
import Testing

/// Starts the built `otbr-sim` on `bus` for `interfaces` with `more` options, waits until its agents own
/// their names, and checks its "ready" lines.
func startSimulatorBinary(
    _ bus: PrivateBus, _ connection: Connection, _ interfaces: [ThreadInterfaceName], _ more: [String] = []
) async throws -> TestProcess {
    let process = try TestProcess(
        try Executables.product("otbr-sim"),
        ["--bus", bus.address] + interfaces.flatMap { ["--interface", $0.rawValue] } + more,
        directory: bus.directory)
    // otbr-sim says "ready" once it owns the name: its output is the event.
    try await eventually("otbr-sim is on the bus", timeout: .seconds(10), wakingOn: process.wakeups) {
        for name in interfaces where try await connection.nameOwner(of: name.busName) == nil { return false }
        return process.stdout.split(separator: "\n").count == interfaces.count
    }
    #expect(process.stdout == interfaces.map { "ready \($0.busName)\n" }.joined())
    return process
}

/// One `otbr-sim` process (`wpan0`) on a private bus, driven as a real otbr-agent is driven from
/// outside: `dbus-send` (exact error names) and `busctl` (arrays inside variants). The typed client is
/// there to follow signals.
struct SimulatorBinary {
    let bus: PrivateBus
    let connection: Connection
    let process: TestProcess
    let name: ThreadInterfaceName = "wpan0"

    var dbusSend: DBusSend { DBusSend(address: bus.address, interfaceName: name) }
    var client: BorderRouterAgent { BorderRouterAgent(connection: connection, interfaceName: name, networkTimeout: .seconds(10)) }

    private func busctl(_ arguments: [String]) async throws -> ProcessResult {
        let tool = try Executables.find("busctl", package: "systemd")
        return try await ProcessRunner.run(tool, ["--address=\(bus.address)"] + arguments)
    }

    private var target: [String] { [name.busName.rawValue, name.objectPath.rawValue, "io.openthread.BorderRouter"] }

    /// `busctl get-property` of an agent property; stdout is busctl's text, e.g. `ay 4 8 1 16 0`.
    func get(_ property: String) async throws -> ProcessResult {
        try await busctl(["get-property"] + target + [property])
    }

    /// The value of an `ay` property as busctl prints it, or nil when the read fails.
    func bytes(_ property: String) async throws -> [UInt8]? {
        let r = try await get(property)
        let words = r.stdout.split(whereSeparator: \.isWhitespace)
        guard r.status == 0, words.first == "ay", words.count >= 2, let count = Int(words[1]) else { return nil }
        let values = words.dropFirst(2).compactMap { UInt8($0) }
        return values.count == count ? values : nil
    }

    /// `busctl set-property` of an `ay` property.
    func set(_ property: String, bytes: [UInt8]) async throws -> ProcessResult {
        try await busctl(["set-property"] + target + [property, "ay", "\(bytes.count)"] + bytes.map { String($0) })
    }

    /// `dbus-send` of a method whose only argument is a byte array, such as `AttachAllNodesTo`.
    func call(_ member: String, bytes: [UInt8]) async throws -> ProcessResult {
        try await dbusSend.call(member, ["array:byte:" + bytes.map { String(format: "0x%02x", $0) }.joined(separator: ",")])
    }
}

/// Runs `body` with the built `otbr-sim` started with `options` (fast role changes unless overridden)
/// on a fresh private bus, then stops it and expects a clean exit.
func withSimulatorBinary(_ options: [String], _ body: (SimulatorBinary) async throws -> Void) async throws {
    try await withPrivateBus { bus throws in
        let connection = try await Connection(bus: .address(bus.address))
        let process = try await startSimulatorBinary(bus, connection, ["wpan0"], ["--role-delay", "50"] + options)
        do {
            try await body(SimulatorBinary(bus: bus, connection: connection, process: process))
        } catch {
            await connection.close()
            _ = await process.terminate()
            throw error
        }
        await connection.close()
        #expect(await process.terminate() == 0)
    }
}

/// Lower-case hex of `bytes`, as `--dataset` takes it.
func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
