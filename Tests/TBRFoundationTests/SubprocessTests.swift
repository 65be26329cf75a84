import TBRFoundation
import Testing

/// How tbrd runs `nft` and `dot`: output captured, input written, and a deadline that holds even for a child
/// that closes its output and stays.
@Suite struct SubprocessTests {
    @Test func theOutputTheStatusAndTheInputComeBack() async throws {
        let result = try await Subprocess.run("/bin/sh", ["-c", "cat; echo out; echo err >&2; exit 3"], input: Array("in\n".utf8), timeout: .seconds(20))
        #expect(result.status == 3 && result.stdout == "in\nout\n" && result.stderr == "err\n")
    }

    /// A child that closes its output and goes on: the deadline still ends the wait (it used to block
    /// until the child exited, however long that took).
    @Test func aChildThatClosesItsOutputAndStaysIsKilledAtTheDeadline() async throws {
        do throws(Subprocess.Failure) {
            _ = try await Subprocess.run("/bin/sh", ["-c", "exec >&- 2>&- <&-; sleep 60"], input: [], timeout: .seconds(1))
            Issue.record("a child still running after its deadline was reported finished")
        } catch {
            #expect(error == .timedOut(seconds: 1), "\(error)")
        }
    }
}
