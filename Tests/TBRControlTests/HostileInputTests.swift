import Foundation
import TBRTestKit
import Testing

/// tbrctl against input and output no user should have to think about: endless input, a full disk, a
/// huge or terminal-controlling argument.
@Suite struct HostileInputTests {
    let tbrctl: TbrctlBinary
    init() throws { tbrctl = try TbrctlBinary() }

    /// Runs `command` with /bin/sh (for redirections), tbrctl on PATH as `tbrctl`.
    func shell(_ command: String) async throws -> ProcessResult {
        try await ProcessRunner.run("/bin/sh", ["-c", "tbrctl() { \"\(tbrctl.path)\" \"$@\"; }; " + command], timeout: .seconds(30))
    }

    @Test(arguments: [
        "tbrctl dataset decode - < /dev/zero",
        "tbrctl dataset validate - < /dev/zero",
        "tbrctl dataset pskc --passphrase - --name N --xpanid 1111111122222222 < /dev/zero",
        "tbrctl --bus unix:path=/nonexistent network join --dataset - < /dev/zero",
        "tbrctl --bus unix:path=/nonexistent network join --dataset-file /dev/zero",
    ])
    func endlessInputIsRefusedAfterTheLargestValidOne(_ command: String) async throws {
        let r = try await shell(command)
        #expect(r.status == 65, "\(command): \(r.status) \(r.stderr)")
        #expect(r.stderr.hasPrefix("tbrctl: ") && r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        #expect(r.stderr.utf8.count < 300)
    }

    @Test func aMegabyteOfBadInputGivesOneShortLine() async throws {
        let r = try await shell("head -c 1000000 /dev/urandom | base64 | tbrctl dataset decode -")
        #expect(r.status == 65 && r.stderr.utf8.count < 300, "\(r.stderr.prefix(300))")
    }

    @Test func aFailedWriteToStandardOutputIsAnError() async throws {
        for command in ["tbrctl dataset new > /dev/full", "tbrctl --version > /dev/full", "tbrctl --json epskc generate > /dev/full"] {
            let r = try await shell(command)
            #expect(r.status == 74, "\(command): \(r.status)")
            #expect(r.stderr == "tbrctl: cannot write the output: No space left on device\n", "\(r.stderr)")
        }
    }
}

extension HostileInputTests {
    @Test func errorsNeverWriteRawControlCharacters() async throws {
        let r = try await tbrctl.run(["--bus", "unix:path=/nonexistent", "info", "-d", "\u{1B}[2J\u{1B}]0;pwned\u{7}"])
        #expect(r.status != 0)
        #expect(!r.stderr.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{7}" }, "\(r.stderr)")
        let unknown = try await tbrctl.run(["--\u{1B}[31mred"])
        #expect(unknown.status == 64 && !unknown.stderr.contains("\u{1B}"), "\(unknown.stderr)")
    }
}
