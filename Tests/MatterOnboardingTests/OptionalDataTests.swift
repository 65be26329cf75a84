import MatterOnboarding
import Testing

/// The optional TLV data of QR codes: serial numbers, vendor elements, malformed data.
@Suite struct OptionalDataTests {
    /// TestHelpers.h's default payload: vendor 12, product 1, soft-AP, discriminator 128, passcode 2048.
    func defaultPayload() throws -> SetupPayload {
        SetupPayload(
            vendorID: VendorID(12), productID: ProductID(1), discoveryCapabilities: .softAP,
            discriminator: .long(128), passcode: try Passcode(2048))
    }

    // These three codes were generated here and read back by the CHIP SDK's parser (home-assistant-chip-core
    // 2025.7.0), which found serial number 123456789 and, in the last two, vendor tags 130 = "myData", 131 = 12:
    // the SDK's own TestHelpers.h optional defaults.
    static let serialString = "MT:M5L90MP500K64J0A33P0WISA0DK5N1K8SQ1RYCU1O0"
    static let serialStringAndVendor = "MT:M5L90MP500K64J0A33P0WISA0DK5N1K8SQ1RYCU1SET70.QT52B.E23-WZE0O0"
    static let serialNumberAndVendor = "MT:M5L90MP500K64J0A33P0A43P0X-T80SET70.QT52B.E23-WZE0O0"

    @Test func aStringSerialNumberGeneratesAndParses() throws {
        var payload = try defaultPayload()
        payload.serialNumber = .string("123456789")
        #expect(try payload.qrCode() == Self.serialString)
        let parsed = try SetupPayload(parsing: Self.serialString)
        #expect(parsed.serialNumber == .string("123456789"))
        #expect(parsed == payload)
    }

    @Test func vendorElementsKeepTheirTypesAndOrder() throws {
        var payload = try defaultPayload()
        payload.serialNumber = .string("123456789")
        payload.vendorElements = [
            OptionalDataElement(tag: 0x82, value: .string("myData")), OptionalDataElement(tag: 0x83, value: .signedInteger(12)),
        ]
        #expect(try payload.qrCode() == Self.serialStringAndVendor)
        let parsed = try SetupPayload(parsing: Self.serialStringAndVendor)
        #expect(parsed.vendorElements.map(\.tag) == [0x82, 0x83])
        #expect(parsed.vendorElements.map(\.value) == [.string("myData"), .signedInteger(12)])
    }

    @Test func anUnsignedSerialNumberStaysANumber() throws {
        let parsed = try SetupPayload(parsing: Self.serialNumberAndVendor)
        #expect(parsed.serialNumber == .number(123_456_789))
        #expect(parsed.serialNumber?.text == "123456789")
        #expect(try parsed.qrCode() == Self.serialNumberAndVendor)
    }

    @Test func vendorElementsInAnyOrderAndOfEveryTypeRoundTrip() throws {
        var payload = try defaultPayload()
        payload.vendorElements = [
            OptionalDataElement(tag: 0xFF, value: .unsignedInteger(UInt64.max)),
            OptionalDataElement(tag: 0x90, value: .signedInteger(-70000)),
            OptionalDataElement(tag: 0x80, value: .string(String(repeating: "é", count: 200))),
            OptionalDataElement(tag: 0x81, value: .signedInteger(Int64.min)),
        ]
        payload.commonElements = [OptionalDataElement(tag: 0x03, value: .unsignedInteger(2))]
        let parsed = try SetupPayload(parsing: try payload.qrCode())
        #expect(parsed == payload)
        #expect(parsed.vendorElements.map(\.tag) == [0xFF, 0x90, 0x80, 0x81])
    }

    @Test func generateRefusesTagsOutsideTheirRangeOrUsedTwice() throws {
        var payload = try defaultPayload()
        payload.vendorElements = [OptionalDataElement(tag: 0x10, value: .signedInteger(1))]
        #expect(throws: SetupPayloadError.ruleBroken(.optionalData("vendor element tag 0x10 is outside 0x80 to 0xFF"))) {
            try payload.qrCode()
        }
        payload.vendorElements = [
            OptionalDataElement(tag: 0x80, value: .signedInteger(1)), OptionalDataElement(tag: 0x80, value: .string("x")),
        ]
        #expect(throws: SetupPayloadError.ruleBroken(.optionalData("tag 0x80 is used twice"))) { try payload.qrCode() }
        payload.vendorElements = []
        payload.commonElements = [OptionalDataElement(tag: 0x00, value: .string("x"))]
        #expect(throws: SetupPayloadError.ruleBroken(.optionalData("common element tag 0x00 is outside 0x01 to 0x7F"))) {
            try payload.qrCode()
        }
    }

    /// The QR code of the default payload followed by `tlv`.
    func code(withTLV tlv: [UInt8]) throws -> String {
        let fixed = try Base38.decode(try defaultPayload().qrCode().dropFirst(3))
        return "MT:" + Base38.encode(fixed + tlv)
    }

    @Test func aSignedOrWideSerialNumberBreaksTheOptionalDataRule() throws {
        let signed = try code(withTLV: [0x15, 0x20, 0x00, 0x05, 0x18])
        #expect(throws: SetupPayloadError.ruleBroken(.optionalData(
            "the serial number (tag 0x00) must be a UTF-8 string or an unsigned integer of at most 32 bits, not a signed integer"))) {
            try SetupPayload(parsing: signed)
        }
        let wide = try code(withTLV: [0x15, 0x27, 0x00, 1, 0, 0, 0, 1, 0, 0, 0, 0x18])
        #expect(throws: SetupPayloadError.ruleBroken(.optionalData(
            "the serial number (tag 0x00) must be a UTF-8 string or an unsigned integer of at most 32 bits, not above 32 bits"))) {
            try SetupPayload(parsing: wide)
        }
    }

    @Test func otherTypesAreSkippedAsTheSDKDoes() throws {
        // A boolean (0x29), a byte string (0x30) and a nested structure (0x35 … 0x18) between two kept elements.
        let tlv: [UInt8] = [0x15, 0x24, 0x81, 7, 0x29, 0x82, 0x30, 0x83, 2, 0xAB, 0xCD, 0x35, 0x84, 0x24, 0x01, 9, 0x18,
                            0x2C, 0x85, 1, 0x41, 0x18]
        let parsed = try SetupPayload(parsing: try code(withTLV: tlv))
        #expect(parsed.vendorElements == [
            OptionalDataElement(tag: 0x81, value: .unsignedInteger(7)), OptionalDataElement(tag: 0x85, value: .string("A")),
        ])
    }

    @Test(arguments: [
        ([0x15], OptionalDataError(offset: 1, reason: .truncated)),
        ([0x17, 0x18], OptionalDataError(offset: 0, reason: .notAnAnonymousStructure(0x17))),
        ([0x15, 0x04, 0x01, 0x18], OptionalDataError(offset: 1, reason: .notAContextTag(0x04))),
        ([0x15, 0x24, 0x81, 1, 0x24, 0x81, 2, 0x18], OptionalDataError(offset: 4, reason: .duplicateTag(0x81))),
        ([0x15, 0x2C, 0x81, 2, 0xC3, 0x28, 0x18], OptionalDataError(offset: 1, reason: .invalidUTF8(tag: 0x81))),
        ([0x15, 0x2C, 0x81, 9, 0x41, 0x18], OptionalDataError(offset: 4, reason: .truncated)),
        ([0x15, 0x39, 0x81, 0x18], OptionalDataError(offset: 1, reason: .reservedElementType(0x19))),
        ([0x15, 0x18, 0x00], OptionalDataError(offset: 2, reason: .trailingBytes(1))),
        ([0x15, 0x35, 0x81] + [UInt8](repeating: 0x15, count: 9), OptionalDataError(offset: 10, reason: .nestedTooDeep)),
    ] as [([UInt8], OptionalDataError)])
    func malformedDataIsRefusedWithItsOffset(_ tlv: [UInt8], _ expected: OptionalDataError) throws {
        #expect(throws: SetupPayloadError.optionalData(expected)) { try SetupPayload(parsing: try code(withTLV: tlv)) }
    }
}
