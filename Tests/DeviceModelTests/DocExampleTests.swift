import DBus
import DeviceModel
import Foundation
import MeshCoP
import OTBRSimulator
import TBRTestKit
import Testing

/// The example of docs/device-model.md compiles (it is DocExample.swift), runs, and matches the doc.
@Suite struct DocExampleTests {
    @Test func theExampleRunsAgainstTheSimulator() async throws {
        try await withPrivateBus { bus throws in
            let agent = SimulatedAgent(configuration: fastConfiguration("wpan0") { $0.formed() }, bus: .address(bus.address))
            try await agent.start()
            let connection = try await Connection(bus: .address(bus.address))
            let control = RemoteObject(
                connection: connection, destination: "io.openthread.BorderRouter.wpan0", path: "/io/tbrd/Simulator/wpan0",
                interface: SimulatedAgent.controlInterfaceName)
            let reason = try await shareNetwork(connection: connection, router: "wpan0") { key throws in
                let accepted = try await control.call("UseEphemeralKey", [.string(key.digits)])
                #expect(accepted == [.bool(true)])
            }
            #expect(reason == .keyUsed)
            await connection.close()
            await agent.stop()
        }
    }

    @Test func theDocShowsTheCompiledExample() throws {
        let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let root = tests.deletingLastPathComponent().deletingLastPathComponent()
        let source = try String(contentsOf: tests.appendingPathComponent("DocExample.swift"), encoding: .utf8)
        let doc = try String(contentsOf: root.appendingPathComponent("docs/device-model.md"), encoding: .utf8)
        let code = try #require(Self.between(source, "// BEGIN doc example\n", "// END doc example"))
        let marker = "<!-- compiled as Tests/DeviceModelTests/DocExample.swift -->\n```swift\n"
        let block = try #require(Self.between(doc, marker, "```"), "docs/device-model.md lacks the marked example")
        #expect(block == code, "docs/device-model.md and Tests/DeviceModelTests/DocExample.swift differ")
    }

    static func between(_ text: String, _ start: String, _ end: String) -> String? {
        guard let a = text.range(of: start), let b = text.range(of: end, range: a.upperBound..<text.endIndex) else { return nil }
        return String(text[a.upperBound..<b.lowerBound])
    }
}
