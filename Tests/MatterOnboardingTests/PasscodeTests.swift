import Foundation
import MatterOnboarding
import MeshCoP
import Testing

/// The passcode is a secret: it never shows in descriptions, dumps or JSON unless asked for.
@Suite struct PasscodeTests {
    @Test func descriptionsAndDumpsAreRedacted() throws {
        let passcode = try Passcode(20202021)
        let payload = try SetupPayload(parsing: "MT:Y.K9042C00KA0648G00")
        var dumped = ""
        dump(payload, to: &dumped)
        for text in [passcode.description, passcode.debugDescription, "\(passcode)", "\(payload)", String(reflecting: payload), dumped] {
            #expect(!text.contains("20202021"), "\(text)")
        }
        #expect(passcode.description == "<redacted>")
        #expect(passcode.digits == "20202021")
        #expect(try Passcode(1).digits == "00000001")
    }

    @Test func jsonShowsTheNumberOnlyWhenSecretsAreRevealed() throws {
        let passcode = try Passcode(20202021)
        let encoder = JSONEncoder()
        #expect(String(decoding: try encoder.encode([passcode]), as: UTF8.self) == "[\"<redacted>\"]")
        encoder.userInfo[.revealSecrets] = true
        #expect(String(decoding: try encoder.encode([passcode]), as: UTF8.self) == "[20202021]")
    }

    @Test func errorMessagesNeverContainThePasscode() throws {
        // (Values the rule's sentence itself lists, such as 12345678, are not secrets worth hiding.)
        for value: UInt32 in [44_444_444, 123_456_789, 100_000_000] {
            do {
                _ = try SetupPayload(parsing: RawQRCode(passcode: value).code)
                Issue.record("\(value) was accepted")
            } catch {
                #expect(!error.description.contains(String(value)))
                #expect(error.violation?.rule == "passcode")
            }
        }
    }
}
