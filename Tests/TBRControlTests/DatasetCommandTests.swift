import Testing

/// `tbrctl dataset decode | validate | pskc`, run as the built binary.
@Suite struct DatasetCommandTests {
    let tbrctl: TbrctlBinary

    init() throws { tbrctl = try TbrctlBinary() }

    @Test func decodeShowsTheTableWithSecretsRedacted() async throws {
        let result = try await tbrctl.run(["dataset", "decode", Vectors.datasetA])
        #expect(result.status == 0)
        #expect(result.stderr == "")
        for line in [
            "Channel            15 (page 0)", "Extended PAN ID    1111111122222222", "Network Name       OpenThreadDemo",
            "PAN ID             0x1234", "Network Key        <redacted>", "PSKc               <redacted>",
        ] {
            #expect(result.stdout.contains(line + "\n"), "missing line: \(line)")
        }
        #expect(!result.stdout.contains(Vectors.networkKeyA))
        #expect(!result.stdout.contains(Vectors.pskcA))
    }

    @Test func decodeRevealsSecretsOnlyWhenAsked() async throws {
        for arguments in [["dataset", "decode", Vectors.datasetA, "--reveal-secrets"],
                          ["--reveal-secrets", "dataset", "decode", Vectors.datasetA]] {
            let result = try await tbrctl.run(arguments)
            #expect(result.status == 0)
            #expect(result.stdout.contains("Network Key        \(Vectors.networkKeyA)\n"))
            #expect(result.stdout.contains("PSKc               \(Vectors.pskcA)\n"))
        }
    }

    @Test func decodeJSONBeforeOrAfterTheCommandWords() async throws {
        let (before, json) = try await tbrctl.json(["--json", "dataset", "decode", Vectors.datasetA])
        let (after, _) = try await tbrctl.json(["dataset", "decode", Vectors.datasetA, "--json"])
        #expect(before.status == 0 && before.stdout == after.stdout)
        #expect(json["networkName"] as? String == "OpenThreadDemo")
        #expect(json["panId"] as? Int == 0x1234)
        #expect(json["extPanId"] as? String == "1111111122222222")
        #expect(json["networkKey"] as? String == "<redacted>")
        #expect(json["pskc"] as? String == "<redacted>")
        #expect(!before.stdout.contains(Vectors.networkKeyA) && !before.stdout.contains(Vectors.pskcA))

        let (_, revealed) = try await tbrctl.json(["dataset", "--json", "decode", "--reveal-secrets", Vectors.datasetA])
        #expect(revealed["networkKey"] as? String == Vectors.networkKeyA)
        #expect(revealed["pskc"] as? String == Vectors.pskcA)
    }

    @Test func decodeReadsStandardInputForDash() async throws {
        let fromArgument = try await tbrctl.run(["dataset", "decode", Vectors.datasetA])
        let fromInput = try await tbrctl.run(["dataset", "decode", "-"], input: Vectors.datasetA + "\n")
        #expect(fromInput.status == 0 && fromInput.stdout == fromArgument.stdout)
        let empty = try await tbrctl.run(["dataset", "decode", "-"], input: "\n")
        #expect(empty.status == 65)
        #expect(empty.stderr == "tbrctl: standard input is empty; expected the dataset as hex\n")
    }

    @Test func decodeRejectsBadDataWithTheTLVAndOffset() async throws {
        let tooLong = try await tbrctl.run(["dataset", "decode", Vectors.nameTooLong])
        #expect(tooLong.status == 65)
        #expect(tooLong.stdout == "")
        #expect(tooLong.stderr == "tbrctl: TLV 3 (Network Name) at offset 0: length 17 exceeds 16\n")

        let notHex = try await tbrctl.run(["dataset", "decode", "0e0g"])
        #expect(notHex.status == 65)
        #expect(notHex.stderr == "tbrctl: the dataset is not hex: character 'g' at position 3 is not a hex digit\n")
    }

    @Test func validateAcceptsACompleteActiveDataset() async throws {
        let result = try await tbrctl.run(["dataset", "validate", Vectors.datasetA])
        #expect(result.status == 0)
        #expect(result.stdout == "valid complete Active dataset (105 bytes)\n")

        let (_, json) = try await tbrctl.json(["dataset", "validate", "--json", Vectors.datasetA])
        #expect(json["valid"] as? Bool == true)
        #expect((json["problems"] as? [Any])?.isEmpty == true)

        let pending = try await tbrctl.run(["dataset", "validate", "--pending", Vectors.datasetA])
        #expect(pending.status == 65)
        #expect(pending.stdout.contains("TLV 51 (Pending Timestamp) is missing: a complete Pending dataset needs it\n"))
    }

    @Test func validateListsEveryProblemWithTLVAndOffset() async throws {
        // Dataset A's first five TLVs (61 bytes), then a Network Name of 17 bytes.
        let broken = String(Vectors.datasetA.prefix(122)) + Vectors.nameTooLong
        let result = try await tbrctl.run(["dataset", "validate", broken])
        #expect(result.status == 65)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.first == "TLV 3 (Network Name) at offset 61: length 17 exceeds 16")
        #expect(lines.contains("TLV 1 (PAN ID) is missing: a complete Active dataset needs it"))
        #expect(lines.contains("TLV 12 (Security Policy) is missing: a complete Active dataset needs it"))

        let (json, report) = try await tbrctl.json(["--json", "dataset", "validate", broken])
        #expect(json.status == 65)
        #expect(report["valid"] as? Bool == false)
        let problems = try #require(report["problems"] as? [[String: Any]])
        #expect(problems.count == lines.count)
        #expect(problems.first?["tlvType"] as? Int == 3)
        #expect(problems.first?["tlvName"] as? String == "Network Name")
        #expect(problems.first?["offset"] as? Int == 61)
        #expect(problems.first?["message"] as? String == String(lines[0]))
    }

    @Test func pskcMatchesTheThreadSpecificationVector() async throws {
        let arguments = ["dataset", "pskc", "--passphrase", "12SECRETPASSWORD34", "--name", "Test Network",
                         "--xpanid", "0001020304050607"]
        let result = try await tbrctl.run(arguments)
        #expect(result.status == 0)
        #expect(result.stdout == "c3f59368445a1b6106be420a706d4cc9\n")

        let (_, json) = try await tbrctl.json(arguments + ["--json"])
        #expect(json as? [String: String] == ["pskc": "c3f59368445a1b6106be420a706d4cc9"])

        let fromInput = try await tbrctl.run(["dataset", "pskc", "--passphrase=-", "--name=Test Network",
                                        "--xpanid=0001020304050607"], input: "12SECRETPASSWORD34\n")
        #expect(fromInput.stdout == result.stdout)
    }

    @Test func pskcRejectsBadArguments() async throws {
        let cases: [([String], String)] = [
            (["--passphrase", "12345", "--name", "N", "--xpanid", "0001020304050607"],
             "the passphrase must be 6 to 255 bytes long; it has 5"),
            (["--passphrase", "123456", "--name", "N", "--xpanid", "00010203"],
             "invalid value '00010203' for '--xpanid': an extended PAN ID is 16 hex digits, such as 1111111122222222"),
            (["--passphrase", "123456", "--xpanid", "0001020304050607"],
             "missing option '--name NAME' for 'tbrctl dataset pskc'"),
        ]
        for (arguments, message) in cases {
            let result = try await tbrctl.run(["dataset", "pskc"] + arguments)
            #expect(result.status == 64, "\(arguments)")
            #expect(result.stderr == "tbrctl: \(message)\nRun 'tbrctl dataset pskc --help' for usage.\n")
        }
    }
}
