import MatterOnboarding
import MeshCoP
import Testing

/// Generate → parse gives back the payload, over many random valid payloads.
@Suite struct RoundTripTests {
    /// A random payload that breaks no rule.
    static func randomPayload(using g: inout SeededGenerator, optionalData: Bool) -> SetupPayload {
        let vendor = VendorID(UInt16.random(in: 1...0xFFF4, using: &g))
        var capabilities = DiscoveryCapabilities(rawValue: UInt8.random(in: 1...0x0F, using: &g))
        if capabilities.isEmpty { capabilities = .ble }
        var payload = SetupPayload(
            vendorID: vendor, productID: ProductID(UInt16.random(in: 1...0xFFFF, using: &g)),
            commissioningFlow: CommissioningFlow.allCases.randomElement(using: &g)!, discoveryCapabilities: capabilities,
            discriminator: .long(UInt16.random(in: 0...0xFFF, using: &g)), passcode: Passcode.random(using: &g))
        guard optionalData else { return payload }
        switch Int.random(in: 0...2, using: &g) {
        case 0: payload.serialNumber = .string(String((0..<Int.random(in: 0...32, using: &g)).map { _ in
            Character(Unicode.Scalar(UInt8.random(in: 0x21...0x7E, using: &g))) }))
        case 1: payload.serialNumber = .number(UInt32.random(in: 0...UInt32.max, using: &g))
        default: break
        }
        var tags = Array(OptionalDataElement.vendorTags).shuffled(using: &g).prefix(Int.random(in: 0...4, using: &g))
        while let tag = tags.popFirst() {
            let value: OptionalDataElement.Value = switch Int.random(in: 0...2, using: &g) {
            case 0: .string("v\(tag)-" + String(repeating: "x", count: Int.random(in: 0...300, using: &g)))
            case 1: .signedInteger(Int64.random(in: Int64.min...Int64.max, using: &g) >> Int.random(in: 0...63, using: &g))
            default: .unsignedInteger(UInt64.random(in: 0...UInt64.max, using: &g) >> Int.random(in: 0...63, using: &g))
            }
            payload.vendorElements.append(OptionalDataElement(tag: tag, value: value))
        }
        return payload
    }

    @Test func qrCodesGiveBackThePayloadExactly() throws {
        var g = SeededGenerator(seed: 1)
        for _ in 0..<2000 {
            let payload = Self.randomPayload(using: &g, optionalData: true)
            let code = try payload.qrCode()
            #expect(code.hasPrefix("MT:"))
            let parsed = try SetupPayload(parsing: code)
            #expect(parsed == payload, "\(code)")
            #expect(try parsed.qrCode() == code)
        }
    }

    @Test func manualCodesGiveBackWhatTheyCarry() throws {
        var g = SeededGenerator(seed: 2)
        for _ in 0..<2000 {
            let payload = Self.randomPayload(using: &g, optionalData: false)
            let code = try payload.manualCode()
            #expect(code.count == payload.manualCodeLength)
            #expect(Verhoeff.isValid(code))
            let parsed = try SetupPayload(parsing: code)
            #expect(parsed.passcode == payload.passcode)
            #expect(parsed.discriminator == .short(payload.discriminator.shortValue))
            #expect(parsed.discoveryCapabilities == nil)
            if payload.commissioningFlow == .standard {
                #expect(code.count == 11 && parsed.vendorID == nil && parsed.productID == nil)
                #expect(parsed.commissioningFlow == .standard)
            } else {
                #expect(code.count == 21 && parsed.vendorID == payload.vendorID && parsed.productID == payload.productID)
                #expect(parsed.commissioningFlow == .custom)
            }
            #expect(try parsed.manualCode() == code)
        }
    }

    @Test func randomPasscodesAreValidAndSpread() {
        var g = SeededGenerator(seed: 3)
        let passcodes = (0..<5000).map { _ in Passcode.random(using: &g) }
        #expect(passcodes.allSatisfy { $0.isValid })
        #expect(Set(passcodes).count > 4990)
        #expect(passcodes.contains { $0.rawValue < 10_000_000 } && passcodes.contains { $0.rawValue > 90_000_000 })
        #expect(Passcode.random().isValid)
    }
}
