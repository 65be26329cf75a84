import Foundation
import Testing

/// `tbrctl dataset new` and `tbrctl epskc …`, run as the built binary.
@Suite struct NewAndEPSKcCommandTests {
    let tbrctl: TbrctlBinary

    init() throws { tbrctl = try TbrctlBinary() }

    @Test func newPrintsACompleteRandomDatasetAsHex() async throws {
        let first = try await tbrctl.run(["dataset", "new"])
        let second = try await tbrctl.run(["dataset", "new"])
        #expect(first.status == 0 && second.status == 0)
        #expect(first.stdout != second.stdout, "values are random")
        let hex = first.stdout.trimmingCharacters(in: .newlines)
        #expect(hex.allSatisfy { $0.isHexDigit })
        let check = try await tbrctl.run(["dataset", "validate", hex])
        #expect(check.status == 0 && check.stdout.hasPrefix("valid complete Active dataset"))
    }

    @Test func newUsesTheValuesGiven() async throws {
        let made = try await tbrctl.run([
            "dataset", "new", "--name", "Home", "--channel", "20", "--panid", "abcd", "--extpanid=0011223344556677",
            "--mesh-local-prefix", "fd00:1234:5678:9abc::/64",
        ])
        #expect(made.status == 0)
        let (_, json) = try await tbrctl.json(["--json", "dataset", "decode", "-"], input: made.stdout)
        #expect(json["networkName"] as? String == "Home")
        #expect((json["channel"] as? [String: Int])?["number"] == 20)
        #expect(json["panId"] as? Int == 0xabcd)
        #expect(json["extPanId"] as? String == "0011223344556677")
        #expect(json["meshLocalPrefix"] as? String == "fd00:1234:5678:9abc::/64")

        let (_, hexPrefix) = try await tbrctl.json(["dataset", "decode", "--json", "-"],
                                             input: try await tbrctl.run(["dataset", "new", "--panid", "0x0001",
                                                                    "--mesh-local-prefix", "fd11223344556677"]).stdout)
        #expect(hexPrefix["panId"] as? Int == 1)
        #expect(hexPrefix["meshLocalPrefix"] as? String == "fd11:2233:4455:6677::/64")
    }

    @Test func newJSONRedactsTheSecretsAndTheHexUnlessAsked() async throws {
        let (redacted, json) = try await tbrctl.json(["dataset", "new", "--json", "--name", "Home"])
        #expect(redacted.status == 0)
        #expect(json["hex"] as? String == "<redacted>")
        let dataset = try #require(json["dataset"] as? [String: Any])
        #expect(dataset["networkName"] as? String == "Home")
        #expect(dataset["networkKey"] as? String == "<redacted>")
        #expect(dataset["pskc"] as? String == "<redacted>")

        let (_, revealed) = try await tbrctl.json(["--json", "--reveal-secrets", "dataset", "new"])
        let hex = try #require(revealed["hex"] as? String)
        let key = try #require((revealed["dataset"] as? [String: Any])?["networkKey"] as? String)
        #expect(key.count == 32 && hex.contains(key))
        #expect(try await tbrctl.run(["dataset", "validate", hex]).status == 0)
    }

    @Test func newRejectsBadValuesNamingTheOption() async throws {
        let cases: [([String], String)] = [
            (["--channel", "27"], "invalid value '27' for '--channel': a Thread channel is a number from 11 to 26"),
            (["--channel", "ten"], "invalid value 'ten' for '--channel': a Thread channel is a number from 11 to 26"),
            (["--panid", "0xffff"],
             "invalid value '0xffff' for '--panid': 0xffff is the broadcast PAN ID; use 0x0000 to 0xfffe"),
            (["--panid", "12345"], "invalid value '12345' for '--panid': a PAN ID is 1 to 4 hex digits, such as 0x1234"),
            (["--extpanid", "11111111222222"],
             "invalid value '11111111222222' for '--extpanid': an extended PAN ID is 16 hex digits, such as 1111111122222222"),
            (["--mesh-local-prefix", "2001:db8::/64"],
             "invalid value '2001:db8::/64' for '--mesh-local-prefix': a mesh-local prefix must be in fd00::/8"),
            (["--mesh-local-prefix", "fd00::/48"],
             "invalid value 'fd00::/48' for '--mesh-local-prefix': a mesh-local prefix is a /64 such as fd00:1234:5678:9abc::/64, or 16 hex digits"),
            (["--name", ""], "invalid value '' for '--name': a network name is 1 to 16 bytes of UTF-8; this one is 0"),
            (["--name", "ÄÄÄÄÄÄÄÄÄ"],
             "invalid value 'ÄÄÄÄÄÄÄÄÄ' for '--name': a network name is 1 to 16 bytes of UTF-8; this one is 18"),
            (["--frob"], "unknown option '--frob'"),
            (["extra"], "unexpected argument 'extra' for 'tbrctl dataset new'"),
        ]
        for (arguments, message) in cases {
            let result = try await tbrctl.run(["dataset", "new"] + arguments)
            #expect(result.status == 64, "\(arguments)")
            #expect(result.stdout == "")
            #expect(result.stderr == "tbrctl: \(message)\nRun 'tbrctl dataset new --help' for usage.\n")
        }
    }

    @Test func epskcGenerateMakesKeysThatCheck() async throws {
        for _ in 0..<3 {
            let made = try await tbrctl.run(["epskc", "generate"])
            #expect(made.status == 0)
            let key = made.stdout.trimmingCharacters(in: .newlines)
            #expect(key.count == 9 && key.allSatisfy { $0.isNumber })
            let check = try await tbrctl.run(["epskc", "check", key])
            #expect(check.status == 0 && check.stdout == "valid ePSKc\n")
        }
        let (_, json) = try await tbrctl.json(["epskc", "generate", "--json"])
        #expect((json["epskc"] as? String)?.count == 9)
    }

    @Test func epskcCheckSaysWhyAKeyIsInvalid() async throws {
        #expect(try await tbrctl.run(["epskc", "check", "111111111"]).status == 0)
        let cases = [
            ("111111112", "the ephemeral key's last digit is not its check digit (a digit may be mistyped)"),
            ("11111111", "an ephemeral key is 9 digits; this one has 8 characters"),
            ("1111a1111", "character 'a' at position 5 of the ephemeral key is not a digit"),
        ]
        for (key, reason) in cases {
            let result = try await tbrctl.run(["epskc", "check", key])
            #expect(result.status == 65, "\(key)")
            #expect(result.stdout == "")
            #expect(result.stderr == "tbrctl: not a valid ePSKc: \(reason)\n")
        }
        let (invalid, json) = try await tbrctl.json(["--json", "epskc", "check", "111111112"])
        #expect(invalid.status == 65)
        #expect(json["valid"] as? Bool == false)
        #expect(json["reason"] as? String == cases[0].1)
        let (valid, ok) = try await tbrctl.json(["epskc", "check", "111111111", "--json"])
        #expect(valid.status == 0 && ok["valid"] as? Bool == true && ok["reason"] == nil)
    }
}
