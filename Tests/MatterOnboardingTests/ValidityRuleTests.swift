import MatterOnboarding
import Testing

/// Every rule of section 5.1, on both sides: parsing refuses (or warns), generating refuses.
@Suite struct ValidityRuleTests {
    /// The example apps' payload, valid.
    func valid() throws -> SetupPayload {
        SetupPayload(
            vendorID: VendorID(0xFFF1), productID: ProductID(0x8000), discoveryCapabilities: .ble,
            discriminator: .long(3840), passcode: try Passcode(20202021))
    }

    @Test func theRawBuilderMatchesTheModule() throws {
        #expect(RawQRCode().code == "MT:Y.K9042C00KA0648G00")
    }

    static let forbiddenPasscodes: [UInt32] = [
        0, 11_111_111, 22_222_222, 33_333_333, 44_444_444, 55_555_555, 66_666_666, 77_777_777, 88_888_888, 99_999_999,
        12_345_678, 87_654_321, 100_000_000, Passcode.fieldMaximum,
    ]

    @Test(arguments: forbiddenPasscodes)
    func forbiddenPasscodesAreRefusedEverywhere(_ value: UInt32) throws {
        let expected: RuleViolation = (1...99_999_998).contains(value) ? .passcodeForbidden : .passcodeOutOfRange
        #expect(throws: expected) { try Passcode(value) }
        #expect(throws: SetupPayloadError.ruleBroken(expected)) { try SetupPayload(parsing: RawQRCode(passcode: value).code) }
        var payload = try valid()
        payload.passcode = Passcode(unchecked: value)
        #expect(throws: SetupPayloadError.ruleBroken(expected)) { try payload.qrCode() }
        #expect(throws: SetupPayloadError.ruleBroken(expected)) { try payload.manualCode() }
        #expect(expected.rule == "passcode")
    }

    @Test(arguments: [1, 99_999_998, 11_111_112, 12_345_679] as [UInt32])
    func passcodesAtTheEdgesAreValid(_ value: UInt32) throws {
        let code = RawQRCode(passcode: value).code
        #expect(try SetupPayload(parsing: code).passcode.rawValue == value)
    }

    @Test func aManualCodeWithAForbiddenPasscodeIsRefused() throws {
        // 11111111 = 678 << 14 | 2759: digits "0" (short discriminator 0), "02759", "0678", check digit.
        #expect(678 << 14 | 2759 == 11_111_111)
        let body = "0027590678"
        let code = body + String(try checkDigit(body))
        #expect(throws: SetupPayloadError.ruleBroken(.passcodeForbidden)) { try SetupPayload(parsing: code) }
    }

    @Test func onlyVersionZeroIsUnderstood() throws {
        #expect(throws: SetupPayloadError.ruleBroken(.unsupportedVersion(1))) { try SetupPayload(parsing: RawQRCode(version: 1).code) }
        var payload = try valid()
        payload.version = 7
        #expect(throws: SetupPayloadError.ruleBroken(.unsupportedVersion(7))) { try payload.qrCode() }
        #expect(throws: SetupPayloadError.ruleBroken(.unsupportedVersion(7))) { try payload.manualCode() }
    }

    @Test func theReservedFlowIsRefused() throws {
        #expect(throws: SetupPayloadError.ruleBroken(.reservedCommissioningFlow(3))) {
            try SetupPayload(parsing: RawQRCode(flow: 3).code)
        }
        #expect(RuleViolation.reservedCommissioningFlow(3).rule == "commissioning-flow")
    }

    @Test func discoveryCapabilitiesMustBeKnownAndPresent() throws {
        #expect(throws: SetupPayloadError.ruleBroken(.noDiscoveryCapabilities)) {
            try SetupPayload(parsing: RawQRCode(capabilities: 0).code)
        }
        #expect(throws: SetupPayloadError.ruleBroken(.unknownDiscoveryCapabilities(0x10))) {
            try SetupPayload(parsing: RawQRCode(capabilities: 0x12).code)
        }
        #expect(try SetupPayload(parsing: RawQRCode(capabilities: 0x0F).code).discoveryCapabilities == .known)
        var payload = try valid()
        payload.discoveryCapabilities = []
        #expect(throws: SetupPayloadError.ruleBroken(.noDiscoveryCapabilities)) { try payload.qrCode() }
        payload.discoveryCapabilities = nil
        #expect(throws: SetupPayloadError.ruleBroken(.noDiscoveryCapabilities)) { try payload.qrCode() }
        payload.discoveryCapabilities = DiscoveryCapabilities(rawValue: 0x82)
        #expect(throws: SetupPayloadError.ruleBroken(.unknownDiscoveryCapabilities(0x80))) { try payload.qrCode() }
        // A manual code carries no capabilities, so they are not its concern.
        #expect(try payload.manualCode() == "34970112332")
    }

    @Test func theDiscriminatorFitsItsField() throws {
        var payload = try valid()
        payload.discriminator = .long(4096)
        #expect(throws: SetupPayloadError.ruleBroken(.discriminatorOutOfRange(.long(4096)))) { try payload.qrCode() }
        #expect(throws: SetupPayloadError.ruleBroken(.discriminatorOutOfRange(.long(4096)))) { try payload.manualCode() }
        payload.discriminator = .short(16)
        #expect(throws: SetupPayloadError.ruleBroken(.discriminatorOutOfRange(.short(16)))) { try payload.manualCode() }
        payload.discriminator = .short(15)
        #expect(throws: SetupPayloadError.ruleBroken(.shortDiscriminatorInQRCode)) { try payload.qrCode() }
        #expect(try payload.manualCode() == "34970112332")
        payload.discriminator = .long(4095)
        #expect(try SetupPayload(parsing: try payload.qrCode()).discriminator == .long(4095))
    }

    @Test func generateRefusesReservedVendorIDsAndParseWarns() throws {
        var payload = try valid()
        for vendor: UInt16 in [0xFFF1, 0xFFF4, 0x0000, 0x1234] {
            payload.vendorID = VendorID(vendor)
            payload.productID = ProductID(vendor == 0 ? 0 : 0x8000)
            #expect(throws: Never.self) { try payload.qrCode() }
        }
        payload.productID = ProductID(1)
        for vendor: UInt16 in [0xFFF5, 0xFFFF] {
            payload.vendorID = VendorID(vendor)
            #expect(throws: SetupPayloadError.ruleBroken(.reservedVendorID(VendorID(vendor)))) { try payload.qrCode() }
            let parsed = try SetupPayload(parsing: RawQRCode(vendorID: UInt32(vendor), productID: 1).code)
            #expect(parsed.vendorID == VendorID(vendor))
            #expect(parsed.warnings == [.reservedVendorID(VendorID(vendor))])
        }
        // The 21-digit manual code carries the vendor ID too.
        payload.commissioningFlow = .custom
        #expect(throws: SetupPayloadError.ruleBroken(.reservedVendorID(VendorID(0xFFFF)))) { try payload.manualCode() }
        let body = "74970112336553500001"
        let parsed = try SetupPayload(parsing: body + String(try checkDigit(body)))
        #expect(parsed.vendorID == VendorID(65535) && parsed.warnings == [.reservedVendorID(VendorID(65535))])
        // The 11-digit code does not, so the vendor ID is not its concern.
        payload.commissioningFlow = .standard
        #expect(try payload.manualCode() == "34970112332")
    }

    @Test func productIDZeroGoesOnlyWithVendorIDZero() throws {
        var payload = try valid()
        payload.productID = ProductID(0)
        #expect(throws: SetupPayloadError.ruleBroken(.zeroProductID)) { try payload.qrCode() }
        let parsed = try SetupPayload(parsing: RawQRCode(productID: 0).code)
        #expect(parsed.warnings == [.zeroProductID])
        #expect(try SetupPayload(parsing: "MT:00000CQM00KA0648G00").warnings.isEmpty)
    }

    @Test func everyViolationNamesItsRuleAndNeverThePasscode() throws {
        let all: [RuleViolation] = [
            .unsupportedVersion(1), .passcodeOutOfRange, .passcodeForbidden, .discriminatorOutOfRange(.long(5000)),
            .shortDiscriminatorInQRCode, .reservedCommissioningFlow(3), .unknownDiscoveryCapabilities(0x10),
            .noDiscoveryCapabilities, .reservedVendorID(VendorID(0xFFF5)), .zeroProductID, .optionalData("x"),
        ]
        for violation in all {
            #expect(violation.description == "breaks the \(violation.rule) rule: \(violation.sentence)")
            #expect(SetupPayloadError.ruleBroken(violation).description.hasPrefix("the payload breaks the \(violation.rule) rule: "))
        }
        #expect(Set(all.map(\.rule)) == [
            "version", "passcode", "discriminator", "commissioning-flow", "discovery-capabilities", "vendor-id",
            "product-id", "optional-data",
        ])
    }
}
