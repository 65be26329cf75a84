// Benchmark of MeshCoP's dataset codec, built by bench/meshcop.sh with `swiftc -O` together with the
// MeshCoP and TBRFoundation sources (no SwiftPM target).
//   meshcop-bench ITERATIONS
// Prints one line per case: "<case> <iterations> <seconds> <ops/s>".
import MeshCoP

@main
struct MeshCoPBench {
    static let datasetA =
        "0e080000000000010000000300000f35060004001fffe0020811111111222222220708fdad70bfe5aa15dd051000112233445566778899aabbccddeeff030e4f70656e54687265616444656d6f010212340410445f2b5ca6f2a93a55ce570a70efeecb0c0402a0f7f8"

    static func main() throws {
        let iterations = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 200_000
        let bytes = try OperationalDataset(hex: datasetA).encoded()

        // bytes → typed dataset → bytes
        try measure("swift-bytes", iterations) {
            try OperationalDataset(bytes: bytes).encoded().count
        }
        // hex → typed dataset → hex: the same work as python-otbr-api's parse_tlv + encode_tlv
        try measure("swift-hex", iterations) {
            try OperationalDataset(hex: datasetA).hexString.utf8.count
        }
        // lenient scan with every check (what `tbrctl dataset decode` runs besides decoding)
        try measure("swift-validate", iterations) {
            OperationalDataset.validate(bytes: bytes, as: .active).count + 1
        }
    }

    static func measure(_ name: String, _ iterations: Int, _ body: () throws -> Int) throws {
        var sink = 0
        for _ in 0..<min(1000, iterations) { sink &+= try body() }  // warm-up
        let clock = ContinuousClock()
        let start = clock.now
        for _ in 0..<iterations { sink &+= try body() }
        let elapsed = clock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        guard sink != 0 else { fatalError("nothing was computed") }
        print(name, iterations, seconds, Double(iterations) / seconds)
    }
}
