import Foundation
import Testing

/// `tbrctl matter parse | generate`, run as the built binary: the JSON fields, redaction and exit codes
/// of the contract in docs/cli.md.
@Suite struct MatterCommandTests {
    let tbrctl: TbrctlBinary

    init() throws { tbrctl = try TbrctlBinary() }

    /// The example apps' QR code: vendor 0xFFF1, product 0x8000, BLE, discriminator 3840, passcode 20202021.
    static let qrCode = "MT:Y.K9042C00KA0648G00"
    /// Its manual code.
    static let manualCode = "34970112332"

    @Test func parseJSONHasEveryFieldOfAQRCodeWithSecretsRedacted() async throws {
        let (result, json) = try await tbrctl.json(["matter", "parse", Self.qrCode, "--json"])
        #expect(result.status == 0 && result.stderr == "")
        #expect(Set(json.keys) == [
            "kind", "version", "vendorId", "productId", "commissioningFlow", "discoveryCapabilities", "discriminator",
            "discriminatorIsShort", "setupPasscode", "manualCode",
        ])
        #expect(json["kind"] as? String == "qr")
        #expect(json["version"] as? Int == 0)
        #expect(json["vendorId"] as? Int == 0xFFF1)
        #expect(json["productId"] as? Int == 0x8000)
        #expect(json["commissioningFlow"] as? String == "standard")
        #expect(json["discoveryCapabilities"] as? [String] == ["ble"])
        #expect(json["discriminator"] as? Int == 3840)
        #expect(json["discriminatorIsShort"] as? Bool == false)
        #expect(json["setupPasscode"] as? String == "<redacted>")
        #expect(json["manualCode"] as? String == "<redacted>")
        #expect(!result.stdout.contains("20202021") && !result.stdout.contains(Self.manualCode))
    }

    @Test func revealSecretsShowsThePasscodeAndTheManualCode() async throws {
        let (result, json) = try await tbrctl.json(["--json", "matter", "parse", "--reveal-secrets", Self.qrCode])
        #expect(result.status == 0)
        #expect(json["setupPasscode"] as? Int == 20202021)
        #expect(json["manualCode"] as? String == Self.manualCode)
    }

    @Test func aManualCodeHasNullsForWhatItDoesNotCarry() async throws {
        for code in [Self.manualCode, "3497-011-2332", "3497 011 2332"] {
            let (result, json) = try await tbrctl.json(["matter", "parse", code, "--json", "--reveal-secrets"])
            #expect(result.status == 0)
            #expect(json["kind"] as? String == "manual")
            #expect(json["vendorId"] is NSNull && json["productId"] is NSNull && json["discoveryCapabilities"] is NSNull)
            #expect(json["discriminator"] as? Int == 15 && json["discriminatorIsShort"] as? Bool == true)
            #expect(json["setupPasscode"] as? Int == 20202021)
            #expect(json["manualCode"] as? String == Self.manualCode)
            #expect(json["serialNumber"] == nil && json["vendorElements"] == nil)
        }
        let (_, long) = try await tbrctl.json(["matter", "parse", "7497-0112-3365-5213-27694", "--json"])
        #expect(long["vendorId"] as? Int == 0xFFF1 && long["productId"] as? Int == 0x8001)
        #expect(long["commissioningFlow"] as? String == "custom")
    }

    @Test func optionalDataAppearsOnlyWhenPresent() async throws {
        // TestHelpers.h's payload with serial number "123456789" and vendor tags 0x82 "myData", 0x83 12.
        let code = "MT:M5L90MP500K64J0A33P0WISA0DK5N1K8SQ1RYCU1SET70.QT52B.E23-WZE0O0"
        let (result, json) = try await tbrctl.json(["matter", "parse", code, "--json"])
        #expect(result.status == 0)
        #expect(json["serialNumber"] as? String == "123456789")
        let elements = try #require(json["vendorElements"] as? [[String: Any]])
        #expect(elements.count == 2)
        #expect(elements[0]["tag"] as? Int == 0x82 && elements[0]["type"] as? String == "string")
        #expect(elements[0]["value"] as? String == "myData")
        #expect(elements[1]["tag"] as? Int == 0x83 && elements[1]["type"] as? String == "int" && elements[1]["value"] as? Int == 12)
        let text = try await tbrctl.run(["matter", "parse", code])
        #expect(text.stdout.contains("Serial number           123456789\n"))
        #expect(text.stdout.contains("Vendor element 0x82     string \"myData\"\n"))
    }

    @Test func parseTextIsATableWithSecretsRedacted() async throws {
        let result = try await tbrctl.run(["matter", "parse", Self.qrCode])
        #expect(result.status == 0)
        #expect(result.stdout == """
            Payload                 QR code, version 0
            Vendor ID               0xFFF1 (65521, test vendor)
            Product ID              0x8000 (32768)
            Commissioning flow      standard
            Discovery capabilities  BLE
            Discriminator           3840 (0xF00)
            Setup passcode          <redacted>
            Manual code             <redacted>

            """)
        let revealed = try await tbrctl.run(["matter", "parse", Self.qrCode, "--reveal-secrets"])
        #expect(revealed.stdout.contains("Setup passcode          20202021\n"))
        #expect(revealed.stdout.contains("Manual code             34970112332\n"))
    }

    @Test(arguments: [
        ("MT:Y.K9042C00KA0648G00*MT:-24J0AFN00KA0648G00",
         "tbrctl: the QR code joins 2 onboarding payloads with '*'; give one device's code at a time\n"),
        ("34970112333", "tbrctl: the manual pairing code's check digit does not match the other digits (a digit may be mistyped)\n"),
        ("3497011233", "tbrctl: the manual pairing code has 10 digits; it must have 11 or 21\n"),
        ("MT:y.K9042C00KA0648G00", "tbrctl: the QR code is not valid Base38: character 'y' at position 0 is not one of 0-9, A-Z, '-' and '.'\n"),
    ])
    func undecodableCodesExit65WithTheReason(_ code: String, _ stderr: String) async throws {
        let result = try await tbrctl.run(["matter", "parse", code])
        #expect(result.status == 65)
        #expect(result.stdout == "")
        #expect(result.stderr == stderr)
    }

    @Test func aBrokenRuleExits65NamingTheRule() async throws {
        let forbidden = try await tbrctl.run([
            "matter", "generate", "--vendor-id", "0xFFF1", "--product-id", "0x8000", "--discriminator", "3840",
            "--passcode", "12345678",
        ])
        #expect(forbidden.status == 65)
        #expect(forbidden.stderr == """
            tbrctl: the payload breaks the passcode rule: the setup passcode is one of the forbidden values \
            (00000000, 11111111 … 99999999, 12345678, 87654321)

            """)
        // The example apps' QR code with no discovery capability (bits 37–44 zero).
        let parsed = try await tbrctl.run(["matter", "parse", "MT:Y.K90-Q000KA0648G00"])
        #expect(parsed.status == 65)
        #expect(parsed.stderr == """
            tbrctl: the payload breaks the discovery-capabilities rule: a QR code must name at least one \
            discovery capability (soft-AP, BLE, on-network or Wi-Fi PAF)

            """)
    }

    @Test func aReservedVendorIDIsShownWithAWarning() async throws {
        // Vendor 0xFFFF, product 1, BLE, discriminator 3840, passcode 20202021.
        let result = try await tbrctl.run(["matter", "parse", "MT:Y54J06DB00KA0648G00", "--json"])
        #expect(result.status == 0)
        #expect(result.stderr.hasPrefix("tbrctl: warning: the payload breaks the vendor-id rule: vendor ID 0xFFFF is reserved"))
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        #expect(json?["vendorId"] as? Int == 0xFFFF)
    }

    @Test func generatePrintsBothCodes() async throws {
        let base = ["matter", "generate", "--vendor-id", "0xFFF1", "--product-id", "0x8000", "--discriminator", "3840",
                    "--passcode", "20202021"]
        let text = try await tbrctl.run(base)
        #expect(text.status == 0)
        #expect(text.stdout == "QR code      MT:Y.K9042C00KA0648G00\nManual code  34970112332\n")
        let (_, json) = try await tbrctl.json(base + ["--json"])
        #expect(json.count == 2)
        #expect(json["qrCode"] as? String == "MT:Y.K9042C00KA0648G00")
        #expect(json["manualCode"] as? String == "34970112332")
        // Not the standard flow: the 21-digit manual code; the list of capabilities is written as asked.
        let (custom, long) = try await tbrctl.json([
            "matter", "generate", "--vendor-id", "65521", "--product-id", "32769", "--discriminator", "0xF00",
            "--passcode", "20202021", "--flow", "custom", "--discovery", "ble,on-network", "--json",
        ])
        #expect(custom.status == 0)
        #expect(long["manualCode"] as? String == "749701123365521327694")
        let (_, back) = try await tbrctl.json(["matter", "parse", try #require(long["qrCode"] as? String), "--json"])
        #expect(back["commissioningFlow"] as? String == "custom")
        #expect(back["discoveryCapabilities"] as? [String] == ["ble", "onNetwork"])
    }

    @Test func aRandomPasscodeIsValidAndDiffersEachTime() async throws {
        var passcodes = Set<Int>()
        for _ in 0..<3 {
            let (result, json) = try await tbrctl.json([
                "matter", "generate", "--vendor-id", "0xFFF1", "--product-id", "0x8000", "--discriminator", "1",
                "--passcode", "random", "--json",
            ])
            #expect(result.status == 0)
            let (_, parsed) = try await tbrctl.json(["matter", "parse", try #require(json["qrCode"] as? String), "--json", "--reveal-secrets"])
            passcodes.insert(try #require(parsed["setupPasscode"] as? Int))
        }
        #expect(passcodes.count == 3)
    }

    @Test(arguments: [
        (["--vendor-id", "0xFFF5"], 65, "vendor-id"), (["--vendor-id", "70000"], 65, "vendor-id"),
        (["--product-id", "0"], 65, "product-id"), (["--discriminator", "4096"], 65, "discriminator"),
        (["--passcode", "0"], 65, "passcode"), (["--passcode", "99999999"], 65, "passcode"),
        (["--passcode", "100000000"], 65, "passcode"), (["--discovery="], 65, "discovery-capabilities"),
        (["--vendor-id", "fff1"], 64, "--vendor-id"), (["--product-id", "-1"], 64, "--product-id"),
        (["--discriminator", "0xG"], 64, "--discriminator"), (["--passcode", "2020-2021"], 64, "--passcode"),
        (["--flow", "userIntent"], 64, "--flow"), (["--discovery", "ble,,soft-ap"], 64, "--discovery"),
        (["--discovery", "thread"], 64, "--discovery"),
    ] as [([String], Int32, String)])
    func generateExits64ForMalformedValuesAnd65ForForbiddenOnes(_ change: [String], _ status: Int32, _ named: String) async throws {
        var options = ["--vendor-id": "0xFFF1", "--product-id": "0x8000", "--discriminator": "3840", "--passcode": "20202021"]
        if change.count == 2 { options[change[0]] = nil }
        var arguments = ["matter", "generate"] + options.sorted { $0.key < $1.key }.flatMap { [$0.key, $0.value] }
        if change.count == 2, change[1].hasPrefix("-") { arguments += [change[0] + "=" + change[1]] } else { arguments += change }
        let result = try await tbrctl.run(arguments)
        #expect(result.status == status, "\(arguments): \(result.stderr)")
        #expect(result.stdout == "")
        if status == 65 {
            #expect(result.stderr.hasPrefix("tbrctl: the payload breaks the \(named) rule: "))
        } else {
            #expect(result.stderr.contains("for '\(named)'"))
        }
    }

    @Test func generateNeedsEveryRequiredOption() async throws {
        let result = try await tbrctl.run(["matter", "generate", "--vendor-id", "1", "--product-id", "1", "--discriminator", "1"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--passcode"))
    }
}
