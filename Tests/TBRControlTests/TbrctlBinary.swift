import Foundation
import TBRTestKit
import Testing

/// The `tbrctl` executable built alongside the tests, run as a user would run it.
///
/// `swift test` builds every product into the directory of the test executable
/// (`<scratch>/<triple>/debug/`, whatever `--scratch-path` says), where TBRTestKit's
/// `Executables.product(_:)` finds it (`TBRD_PRODUCTS_DIR` overrides the directory). A missing binary
/// fails the test with a sentence saying where it looked: it is never skipped.
struct TbrctlBinary {
    /// The binary's path.
    let path: String

    /// Finds the binary, or throws why not.
    init() throws { path = try Executables.product("tbrctl") }

    /// Runs `tbrctl arguments…` with `input` on standard input and waits for it to exit.
    func run(_ arguments: [String], input: String = "") async throws -> ProcessResult {
        try await ProcessRunner.run(path, arguments, stdin: input, timeout: .seconds(30))
    }

    /// Runs `tbrctl arguments…` and decodes its standard output as a JSON object.
    func json(_ arguments: [String], input: String = "") async throws -> (ProcessResult, [String: Any]) {
        let result = try await run(arguments, input: input)
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
        return (result, try #require(object as? [String: Any], "\(arguments) did not print a JSON object"))
    }
}
