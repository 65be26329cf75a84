import MatterOnboarding
import Testing

/// The specification's and the SDK's example payloads, parsed and generated.
@Suite struct SpecVectorTests {
    @Test(arguments: Vectors.qrCodes)
    func parsesEveryFieldOfAQRCode(_ v: Vectors.QR) throws {
        let payload = try SetupPayload(parsing: v.code)
        #expect(payload.kind == .qrCode)
        #expect(payload.version == 0)
        #expect(payload.vendorID == VendorID(v.vendor))
        #expect(payload.productID == ProductID(v.product))
        #expect(payload.commissioningFlow == v.flow)
        #expect(payload.discoveryCapabilities == DiscoveryCapabilities(rawValue: v.capabilities))
        #expect(payload.discriminator == .long(v.discriminator))
        #expect(payload.passcode.rawValue == v.passcode)
        #expect(payload.serialNumber == nil && payload.vendorElements.isEmpty && payload.commonElements.isEmpty)
    }

    @Test(arguments: Vectors.qrCodes)
    func generatesTheSameQRCodeAndTheSDKsManualCode(_ v: Vectors.QR) throws {
        let payload = SetupPayload(
            vendorID: VendorID(v.vendor), productID: ProductID(v.product), commissioningFlow: v.flow,
            discoveryCapabilities: DiscoveryCapabilities(rawValue: v.capabilities), discriminator: .long(v.discriminator),
            passcode: try Passcode(v.passcode))
        #expect(try payload.qrCode() == v.code)
        #expect(try payload.manualCode() == v.manual)
    }

    @Test(arguments: Vectors.manualCodes)
    func parsesEveryFieldOfAManualCode(_ v: Vectors.Manual) throws {
        let payload = try SetupPayload(parsing: v.code)
        #expect(payload.kind == .manualCode)
        #expect(payload.discoveryCapabilities == nil)
        #expect(payload.discriminator == .short(v.shortDiscriminator))
        #expect(payload.passcode.rawValue == v.passcode)
        #expect(payload.vendorID?.rawValue == v.ids?.vendor)
        #expect(payload.productID?.rawValue == v.ids?.product)
        // A 21-digit code says only "not standard"; like the SDK, it reads as custom.
        #expect(payload.commissioningFlow == (v.ids == nil ? .standard : .custom))
        #expect(try payload.manualCode() == v.code)
    }

    @Test func theExampleAppsCodeDecodesToTheDocumentedValues() throws {
        // The well-known test device: vendor 0xFFF1, product 0x8000, BLE, discriminator 3840 (0xF00),
        // passcode 20202021; its manual code is 34970112332 (TV-VERHOEFF: check digit of 3497011233 is 2).
        let payload = try SetupPayload(parsing: "MT:Y.K9042C00KA0648G00")
        #expect(payload.vendorID == VendorID(0xFFF1) && payload.vendorID?.isTestVendor == true)
        #expect(payload.productID == ProductID(0x8000))
        #expect(payload.discoveryCapabilities == .ble)
        #expect(payload.discriminator.shortValue == 15)
        #expect(try payload.manualCode() == "34970112332")
        #expect(payload.warnings.isEmpty)
    }

    @Test func theFixedFieldsArePackedLeastSignificantBitFirst() throws {
        // TestHelpers.h's default payload (vendor 12, product 1, soft-AP, discriminator 128, passcode
        // 2048): the SDK's expected bit string, most significant bit first, fields separated.
        let payload = try SetupPayload(parsing: "MT:M5L90MP500K64J00000")
        let bytes = try Base38.decode(try payload.qrCode().dropFirst(3))
        let bits = bytes.reversed().map { b in (0..<8).reversed().map { b >> $0 & 1 == 1 ? "1" : "0" }.joined() }.joined()
        let fields = [4, 27, 12, 8, 2, 16, 16, 3]
        var groups: [String] = []
        var rest = Substring(bits)
        for width in fields {
            groups.append(String(rest.prefix(width)))
            rest = rest.dropFirst(width)
        }
        #expect(groups.joined(separator: " ")
            == "0000 000000000000000100000000000 000010000000 00000001 00 0000000000000001 0000000000001100 000")
    }

    @Test func verhoeffVectorsFromTheSharedSetValidateAsManualCodes() throws {
        // TV-VERHOEFF: 34970112332 and 749701123365521327694 are valid; changing the last digit is not.
        #expect(throws: Never.self) { try SetupPayload(manualCode: "34970112332") }
        #expect(throws: Never.self) { try SetupPayload(manualCode: "749701123365521327694") }
        #expect(throws: SetupPayloadError.checkDigitMismatch) { try SetupPayload(manualCode: "34970112333") }
        #expect(throws: SetupPayloadError.checkDigitMismatch) { try SetupPayload(manualCode: "749701123365521327695") }
    }
}
