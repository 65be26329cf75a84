import MatterOnboarding
import Testing

/// How manual codes may be written, and how malformed text is refused.
@Suite struct ManualCodeFormTests {
    @Test(arguments: ["34970112332", "3497-011-2332", "3497 011 2332", "349-70-11-23-32", " 34970112332 ", "3497 - 011 - 2332"])
    func dashesAndSpacesAreIgnored(_ text: String) throws {
        let payload = try SetupPayload(parsing: text)
        #expect(payload.passcode.rawValue == 20202021 && payload.discriminator == .short(15))
        #expect(try payload.manualCode() == "34970112332")
    }

    @Test(arguments: ["7497-0112-3365-5213-27694", "74970 11233 65521 32769 4", "749 701 123 365 521 327 694"])
    func theLongFormMayBeGroupedToo(_ text: String) throws {
        let payload = try SetupPayload(parsing: text)
        #expect(payload.vendorID == VendorID(0xFFF1) && payload.productID == ProductID(0x8001))
    }

    @Test func charactersOtherThanDigitsSpacesAndDashesAreNamedWithTheirPosition() throws {
        #expect(throws: SetupPayloadError.manualCodeCharacter(".", position: 5)) { try SetupPayload(parsing: "24184.21962") }
        #expect(throws: SetupPayloadError.manualCodeCharacter("\t", position: 4)) { try SetupPayload(parsing: "3497\t0112332") }
        #expect(throws: SetupPayloadError.manualCodeCharacter("m", position: 0)) { try SetupPayload(parsing: "mt:Y.K9042C00KA0648G00") }
        #expect(SetupPayloadError.manualCodeCharacter("\u{1B}", position: 0).description.hasPrefix("character '\\u{1b}'"))
    }

    @Test(arguments: [("", SetupPayloadError.empty), ("- -", .empty), ("2456", .manualCodeLength(4)),
                      ("3497011233", .manualCodeLength(10)), ("349701123321", .manualCodeLength(12)),
                      ("1234567891234567856712", .manualCodeLength(22))] as [(String, SetupPayloadError)])
    func onlyElevenOrTwentyOneDigitsAreACode(_ text: String, _ expected: SetupPayloadError) {
        #expect(throws: expected) { try SetupPayload(parsing: text) }
    }

    /// `body` with its check digit.
    func withCheck(_ body: String) throws -> String { body + String(try checkDigit(body)) }

    @Test func theFirstDigitMustAgreeWithTheLength() throws {
        // First digit 7 says IDs follow, but there are only 11 digits; 3 says none follow, but there are 21.
        #expect(throws: SetupPayloadError.manualCodeLengthMismatch(digits: 11, expected: 21)) {
            try SetupPayload(parsing: try withCheck("7497011233"))
        }
        #expect(throws: SetupPayloadError.manualCodeLengthMismatch(digits: 21, expected: 11)) {
            try SetupPayload(parsing: try withCheck("34970112336552132769"))
        }
    }

    @Test(arguments: [8, 9])
    func leadingEightAndNineAreReserved(_ digit: Int) throws {
        #expect(throws: SetupPayloadError.reservedLeadingDigit(digit)) { try SetupPayload(parsing: try withCheck("\(digit)497011233")) }
    }

    @Test func fieldsThatOverflowAreRefused() throws {
        #expect(throws: SetupPayloadError.manualCodeField("digits 2 to 6", maximum: 0xFFFF)) {
            try SetupPayload(parsing: try withCheck("3700001233"))
        }
        #expect(throws: SetupPayloadError.manualCodeField("digits 7 to 10", maximum: 0x1FFF)) {
            try SetupPayload(parsing: try withCheck("3497019000"))
        }
        #expect(throws: SetupPayloadError.manualCodeField("vendor ID (digits 11 to 15)", maximum: 0xFFFF)) {
            try SetupPayload(parsing: try withCheck("74970112337000032769"))
        }
        #expect(throws: SetupPayloadError.manualCodeField("product ID (digits 16 to 20)", maximum: 0xFFFF)) {
            try SetupPayload(parsing: try withCheck("74970112336552199999"))
        }
    }

    @Test func everyMistypedDigitIsCaught() throws {
        let code = Array("749701123365521327694")
        for i in code.indices {
            for d in "0123456789" where d != code[i] {
                var typo = code
                typo[i] = d
                #expect(throws: (any Error).self) { try SetupPayload(parsing: String(typo)) }
            }
        }
    }

    @Test(arguments: [
        ("MT:Y.K9042C00KA0648G00*MT:-24J0AFN00KA0648G00", 2), ("MT:Y.K9042C00KA0648G00*-24J0AFN00KA0648G00", 2),
        ("MT:Y.K9042C00KA0648G00*-24J0AFN00KA0648G00*00000CQM00KA0648G00", 3), ("MT:Y.K9042C00KA0648G00*", 2),
        ("34970112332*34970112332", 2),
    ])
    func severalPayloadsJoinedWithAStarAreRefused(_ text: String, _ count: Int) {
        #expect(throws: SetupPayloadError.multiplePayloads(count)) { try SetupPayload(parsing: text) }
        #expect(SetupPayloadError.multiplePayloads(count).description.contains("one device's code at a time"))
    }

    @Test func qrCodesThatCannotBeDecodedSayWhy() {
        #expect(throws: SetupPayloadError.base38(.invalidCharacter(" ", position: 18))) {
            try SetupPayload(parsing: "MT:M5L90MP500K64J0000 ")
        }
        #expect(throws: SetupPayloadError.base38(.invalidLength(18))) { try SetupPayload(parsing: "MT:M5L90MP500K64J0000") }
        #expect(throws: SetupPayloadError.base38(.invalidCharacter("y", position: 0))) { try SetupPayload(parsing: "MT:y.K9042C00KA0648G00") }
        #expect(throws: SetupPayloadError.qrCodeTooShort(9)) { try SetupPayload(parsing: "MT:" + Base38.encode([UInt8](repeating: 1, count: 9))) }
        #expect(throws: SetupPayloadError.qrCodeTooShort(0)) { try SetupPayload(parsing: "MT:") }
        #expect(throws: SetupPayloadError.nonZeroPadding(0x8)) { try SetupPayload(parsing: RawQRCode(padding: 8).code) }
        #expect(throws: SetupPayloadError.missingQRCodePrefix) { try SetupPayload(qrCode: "34970112332") }
        #expect(throws: SetupPayloadError.tooLong(5000)) { try SetupPayload(parsing: "MT:" + String(repeating: "0", count: 4997)) }
    }
}
