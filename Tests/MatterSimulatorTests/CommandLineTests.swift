import Foundation
import MatterSimulator
import TBRTestKit
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// matter-sim's command line, in-process for the parsing and as the built binary for the rest: help,
/// usage errors (64), a port it cannot listen on (69), the ready line, SIGTERM (0); and the device
/// grammar.
@Suite struct CommandLineTests {
    static func run(_ arguments: [String]) async throws -> ProcessResult {
        try await ProcessRunner.run(try Executables.product("matter-sim"), arguments, timeout: .seconds(20))
    }

    @Test func helpAndUsageErrors() async throws {
        let help = try await Self.run(["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("USAGE: matter-sim [--listen-address ADDRESS] [--port PORT] [--device WORDS ...]"))
        #expect(help.stdout.contains("--bluetooth"))
        let version = try await Self.run(["--version"])
        #expect(version.status == 0 && version.stdout == "matter-sim \(MatterSimulatorMain.version)\n")
        let badDevice = try await Self.run(["--device", "discriminator=5000 passcode=1"])
        #expect(badDevice.status == 64)
        #expect(badDevice.stderr.contains("invalid value 'discriminator=5000 passcode=1' for '--device': discriminator must be a number from 0 to 4095, not '5000'"))
        #expect(try await Self.run(["--port", "x"]).status == 64)
        #expect(try await Self.run(["--frobnicate"]).status == 64)
    }

    @Test func aPortInUseExits69AndSIGTERMExits0() async throws {
        let sim = try await MatterSimProcess.start()
        #expect(sim.url.hasPrefix("ws://127.0.0.1:") && sim.url.hasSuffix("/ws"))
        #expect(sim.process.stdout == "ready \(sim.url)\n", "exactly one line")
        let port = String(sim.url.dropFirst("ws://127.0.0.1:".count).dropLast("/ws".count))
        let busy = try await Self.run(["--port", port])
        #expect(busy.status == 69)
        #expect(busy.stderr.contains("cannot listen on 127.0.0.1:\(port): Address already in use"))
        #expect(await sim.stop() == 0)
        // SIGINT too.
        let other = try await MatterSimProcess.start()
        #expect(await other.process.terminate(signal: SIGINT) == 0)
    }

    @Test func theDeviceGrammar() throws {
        let device = try SimulatedDevice(parsing: "discriminator=3840 passcode=20202021 vendor-id=0xFFF1 product-id=32768 delay-ms=200 absent no-multi-admin label-readonly")
        #expect(device == SimulatedDevice(
            discriminator: 3840, passcode: 20202021, vendorID: 0xFFF1, productID: 0x8000, stepDelay: .milliseconds(200), isPresent: false,
            supportsMultiAdmin: false, isLabelWritable: false))
        #expect(throws: SimulatedDeviceError.self) { try SimulatedDevice(parsing: "passcode=1") }
        #expect(throws: SimulatedDeviceError.self) { try SimulatedDevice(parsing: "discriminator=1 passcode=1 blue") }
        #expect(throws: SimulatedDeviceError.self) { try SimulatedDevice(parsing: "discriminator=1 passcode=99999999") }
        #expect(device.matches(.short(15)) && device.matches(.long(3840)) && !device.matches(.long(3841)))
    }
}
