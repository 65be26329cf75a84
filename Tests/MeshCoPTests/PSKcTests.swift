import Testing
@testable import MeshCoP

@Suite struct PSKcTests {
    @Test(arguments: [
        ("000102030405060708090a0b0c0d0e0fedcb", "84a348a4a45d235babfffc0d2b4da09a"),
        ("000102030405060708090a0b0c0d0e0f", "980ae87b5f4c9c5214f5b6a8455e4c2d"),
        ("00010203040506070809", "290d9e112edb09ee141fcf64c0b72f3d"),
    ])
    func rfc4615PRFVectors(key: String, expected: String) throws {
        let prf = try AESCMACPRF128(key: Vectors.bytes(key))
        #expect(try prf.compute(Vectors.bytes("000102030405060708090a0b0c0d0e0f10111213")) == Vectors.bytes(expected))
    }

    @Test func rfc4493AESCMACExample() throws {
        // RFC 4493 §4, example 2 (16-byte message), as a check of the OpenSSL wrapper itself.
        let cmac = try AESCMAC(key: Vectors.bytes("2b7e151628aed2a6abf7158809cf4f3c"))
        #expect(try cmac.authenticate(Vectors.bytes("6bc1bee22e409f96e93d7e117393172a"))
            == Vectors.bytes("070a16b46b4d4144f79bdd9dd04a287c"))
        #expect(try cmac.authenticate([]) == Vectors.bytes("bb1d6929e95937287fa37d129b756746"))
    }

    static let maximumPassphrase = String(repeating: "1234567812345678", count: 15) + "123456781234567"

    @Test(arguments: [
        ("12SECRETPASSWORD34", "Test Network", "0001020304050607", "c3f59368445a1b6106be420a706d4cc9"),
        ("123456", "OpenThread", "0001020304050607", "b783812789911eb4ea76596c9ced2a69"),
        ("123456", "OpenThread", "0102030405060708", "44988e22cf652eeeccd1e4c01d0154f8"),
        (PSKcTests.maximumPassphrase, "OpenThread", "0102030405060708", "9e81bd35a253762f80ee04ff2fa285e9"),
        ("J01NME", "MyOTBRNetwork", "1234AAAA1234BBBB", "ee4fb64e9341e13846bbe7e1c52b6785"),
        ("j01Nme", "OpenThreadDemo", "1111111122222222", "445f2b5ca6f2a93a55ce570a70efeecb"),
        ("0123456789ABCDEF", "MyOTBRNetwork", "1234AAAA1234BBBB", "f1927f0ec11da1ac7ef4ee05e81fe0ce"),
    ])
    func pskcVectors(passphrase: String, name: String, xpan: String, expected: String) throws {
        let pskc = try PSKc.derive(
            passphrase: passphrase, networkName: try #require(NetworkName(name)),
            extendedPANID: try #require(ExtendedPANID(xpan)))
        #expect(pskc.hexString == expected)
    }

    @Test func maximumPassphraseIs255Characters() {
        #expect(Self.maximumPassphrase.utf8.count == 255)
    }

    @Test func datasetAPSKcComesFromItsPassphrase() throws {
        let d = try OperationalDataset(bytes: Vectors.datasetA)
        let pskc = try PSKc.derive(
            passphrase: "j01Nme", networkName: try #require(d.networkName), extendedPANID: try #require(d.extendedPANID))
        #expect(pskc == d.pskc)
    }

    @Test func passphraseLengthIsChecked() throws {
        let name = try #require(NetworkName("OpenThread")), xpan = ExtendedPANID(1)
        #expect(throws: PSKc.DerivationError.passphraseLength(5)) {
            try PSKc.derive(passphrase: "12345", networkName: name, extendedPANID: xpan)
        }
        #expect(throws: PSKc.DerivationError.passphraseLength(256)) {
            try PSKc.derive(passphrase: Self.maximumPassphrase + "8", networkName: name, extendedPANID: xpan)
        }
        #expect(throws: PSKc.DerivationError.passphraseLength(0)) {
            try PSKc.derive(passphrase: "", networkName: name, extendedPANID: xpan)
        }
        #expect(PSKc.DerivationError.passphraseLength(5).description
            == "the commissioning passphrase must be 6–255 characters (UTF-8 bytes) long; it has 5")
    }
}

@Suite struct VerhoeffTests {
    @Test(arguments: ["307318421", "487300178", "123455672", "0", "15", "999999994", "000000001", "100000000", "2363",
                      "34970112332", "749701123365521327694", "111111111"])
    func validStrings(_ s: String) throws {
        #expect(Verhoeff.isValid(s))
        try Verhoeff.validate(s)
        // Changing the last digit breaks it.
        let last = s.last!.wholeNumberValue!
        let changed = String(s.dropLast()) + String((last + 1) % 10)
        #expect(!Verhoeff.isValid(changed))
        #expect(throws: Verhoeff.Error.checkDigitMismatch) { try Verhoeff.validate(changed) }
    }

    @Test func checkDigits() throws {
        #expect(try Verhoeff.checkDigit(for: "236") == "3")
        #expect(try Verhoeff.checkDigit(for: "12345") == "1")
        #expect(try Verhoeff.checkDigit(for: "30731842") == "1")
        #expect(try Verhoeff.checkDigit(for: "3497011233") == "2")
        #expect(try Verhoeff.checkDigit(for: "") == "0")
    }

    @Test func invalidFormats() {
        #expect(throws: Verhoeff.Error.notADigit(" ", position: 3)) { try Verhoeff.validate("307 318421") }
        #expect(throws: Verhoeff.Error.notADigit(" ", position: 9)) { try Verhoeff.validate("307318421 ") }
        #expect(throws: Verhoeff.Error.notADigit(" ", position: 0)) { try Verhoeff.validate(" 307318421") }
        #expect(throws: Verhoeff.Error.notADigit("A", position: 0)) { try Verhoeff.validate("ABCDE") }
        #expect(throws: Verhoeff.Error.notADigit("٣", position: 0)) { try Verhoeff.checkDigit(for: "٣") }
        #expect(throws: Verhoeff.Error.empty) { try Verhoeff.validate("") }
        #expect(!Verhoeff.isValid("111111112"))
    }
}

@Suite struct EphemeralKeyTests {
    @Test func generatedKeysAreNineDigitsWithACheckDigit() throws {
        var seen: Set<String> = []
        var digitCounts = [Int](repeating: 0, count: 10)
        for _ in 0..<500 {
            let k = try EphemeralKey.generate()
            #expect(k.digits.count == 9)
            #expect(k.digits.allSatisfy { $0.isASCII && $0.isNumber })
            #expect(Verhoeff.isValid(k.digits))
            #expect(try EphemeralKey(validating: k.digits) == k)
            seen.insert(k.digits)
            for c in k.digits.prefix(8) { digitCounts[c.wholeNumberValue!] += 1 }
        }
        #expect(seen.count > 495)
        // 4000 uniform digits: each count is 400 ± a generous margin (p < 1e-9 of failing by chance).
        #expect(digitCounts.allSatisfy { (280...520).contains($0) }, "\(digitCounts)")
    }

    @Test func validationErrorsAreClear() {
        #expect(throws: EphemeralKey.ValidationError.wrongLength(8)) { try EphemeralKey(validating: "30731842") }
        #expect(throws: EphemeralKey.ValidationError.wrongLength(10)) { try EphemeralKey(validating: "3073184210") }
        #expect(throws: EphemeralKey.ValidationError.notADigit("x", position: 2)) { try EphemeralKey(validating: "30x318421") }
        #expect(throws: EphemeralKey.ValidationError.checkDigitMismatch) { try EphemeralKey(validating: "111111112") }
        #expect(EphemeralKey.ValidationError.wrongLength(8).description == "an ephemeral key is 9 digits; this one has 8 characters")
        #expect(EphemeralKey.ValidationError.notADigit("x", position: 2).description
            == "character 'x' at position 3 of the ephemeral key is not a digit")
        #expect((try? EphemeralKey(validating: "111111111"))?.digits == "111111111")
    }
}
