// Benchmark of MatterOnboarding's parsers and generators, built by bench/matter.sh with `swiftc -O`
// together with the MatterOnboarding, MeshCoP and TBRFoundation sources (no SwiftPM target).
//   matter-bench ITERATIONS
// Prints one line per case: "<case> <iterations> <seconds> <ops/s>".
import MatterOnboarding

@main
struct MatterBench {
    /// The example apps' payload (vendor 0xFFF1, product 0x8000, BLE, 3840, 20202021) and its manual code.
    static let qrCode = "MT:Y.K9042C00KA0648G00"
    static let manualCode = "34970112332"

    static func main() throws {
        let iterations = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 200_000
        let payload = try SetupPayload(parsing: qrCode)
        guard try payload.qrCode() == qrCode, try payload.manualCode() == manualCode else { fatalError("wrong codes") }

        try measure("swift-parse-qr", iterations) { try SetupPayload(parsing: qrCode).discriminator.value }
        try measure("swift-generate-qr", iterations) { try payload.qrCode().utf8.count }
        try measure("swift-parse-manual", iterations) { UInt16(try SetupPayload(parsing: manualCode).discriminator.shortValue) + 1 }
        try measure("swift-generate-manual", iterations) { try payload.manualCode().utf8.count }
        // The round a commissioner makes: read a QR code, write both codes of it.
        try measure("swift-cycle", iterations) {
            let p = try SetupPayload(parsing: qrCode)
            return try p.qrCode().utf8.count + p.manualCode().utf8.count
        }
    }

    static func measure(_ name: String, _ iterations: Int, _ body: () throws -> some BinaryInteger) throws {
        var sink = 0
        for _ in 0..<min(1000, iterations) { sink &+= Int(try body()) }  // warm-up
        let clock = ContinuousClock()
        let start = clock.now
        for _ in 0..<iterations { sink &+= Int(try body()) }
        let elapsed = clock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        guard sink != 0 else { fatalError("nothing was computed") }
        print(name, iterations, seconds, Double(iterations) / seconds)
    }
}
