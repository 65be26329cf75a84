import MeshCoP

extension SetupPayload {
    /// Parses a manual pairing code (Matter Core Specification, section 5.1.4): 11 digits, or 21 when
    /// the first digit says the vendor and product IDs follow, the last digit a Verhoeff check digit.
    /// Spaces and dashes between digits are ignored (`3497-011-2332`, `3497 011 2332`).
    ///
    /// | digits | holds |
    /// |---|---|
    /// | 1 | bit 2: vendor and product IDs follow; bits 1–0: discriminator bits 11–10 |
    /// | 2–6 | bits 15–14: discriminator bits 9–8; bits 13–0: passcode bits 13–0 |
    /// | 7–10 | passcode bits 26–14 |
    /// | 11–15, 16–20 | vendor ID, product ID (21-digit form only) |
    /// | last | Verhoeff check digit of the others |
    ///
    /// The payload has the short discriminator, no discovery capabilities, and, from a 21-digit code,
    /// the vendor and product IDs and the flow `custom` (the code tells only that the flow is not
    /// standard; the CHIP SDK reads it as custom too).
    /// - Throws: ``SetupPayloadError``: a character other than a digit, space or dash, the wrong number
    ///   of digits, a wrong check digit, a reserved first digit, a field out of range, or a rule broken.
    public init(manualCode text: String) throws(SetupPayloadError) {
        guard text.utf8.count <= SetupPayloadError.maximumLength else { throw .tooLong(text.count) }
        if text.utf8.contains(UInt8(ascii: "*")) {
            throw .multiplePayloads(text.split(separator: "*", omittingEmptySubsequences: false).count)
        }
        var digits: [UInt8] = []
        digits.reserveCapacity(21)
        for (position, c) in text.enumerated() where c != " " && c != "-" {
            guard let ascii = c.asciiValue, (0x30...0x39).contains(ascii) else {
                throw .manualCodeCharacter(c, position: position)
            }
            digits.append(ascii - 0x30)
        }
        guard !digits.isEmpty else { throw .empty }
        guard digits.count == 11 || digits.count == 21 else { throw .manualCodeLength(digits.count) }
        let text = String(decoding: digits.map { $0 + 0x30 }, as: UTF8.self)
        guard Verhoeff.isValid(text) else { throw .checkDigitMismatch }
        guard digits[0] <= 7 else { throw .reservedLeadingDigit(Int(digits[0])) }
        let hasIDs = digits[0] & 0b100 != 0
        let expected = hasIDs ? 21 : 11
        guard digits.count == expected else {
            throw .manualCodeLengthMismatch(digits: digits.count, expected: expected)
        }

        func number(_ range: Range<Int>) -> UInt32 { digits[range].reduce(0) { $0 * 10 + UInt32($1) } }
        let chunk1 = UInt32(digits[0])
        let chunk2 = number(1..<6)
        let chunk3 = number(6..<10)
        guard chunk2 <= 0xFFFF else { throw .manualCodeField("digits 2 to 6", maximum: 0xFFFF) }
        guard chunk3 <= 0x1FFF else { throw .manualCodeField("digits 7 to 10", maximum: 0x1FFF) }
        let short = UInt8((chunk1 & 0b11) << 2 | chunk2 >> 14)
        let passcode = Passcode(unchecked: chunk3 << 14 | chunk2 & 0x3FFF)
        var vendor: VendorID?
        var product: ProductID?
        if hasIDs {
            let v = number(10..<15)
            let p = number(15..<20)
            guard v <= 0xFFFF else { throw .manualCodeField("vendor ID (digits 11 to 15)", maximum: 0xFFFF) }
            guard p <= 0xFFFF else { throw .manualCodeField("product ID (digits 16 to 20)", maximum: 0xFFFF) }
            vendor = VendorID(UInt16(v))
            product = ProductID(UInt16(p))
        }
        self.init(
            vendorID: vendor, productID: product, commissioningFlow: hasIDs ? .custom : .standard,
            discoveryCapabilities: nil, discriminator: .short(short), passcode: passcode)
        try validateParsed(as: .manualCode)
    }

    /// The manual pairing code: 11 digits for the standard flow, 21 with the vendor and product IDs
    /// otherwise, ending with the Verhoeff check digit (Matter Core Specification, section 5.1.4).
    ///
    /// A long discriminator is shortened to its top 4 bits. Missing vendor and product IDs are
    /// written as 00000.
    /// - Throws: ``SetupPayloadError/ruleBroken(_:)`` for the first rule the payload breaks as a manual
    ///   code.
    public func manualCode() throws(SetupPayloadError) -> String {
        try validate(for: .manualCode)
        let short = UInt32(discriminator.shortValue)
        let hasIDs = commissioningFlow != .standard
        let chunk1 = (hasIDs ? 0b100 : 0) | short >> 2
        let chunk2 = (short & 0b11) << 14 | passcode.rawValue & 0x3FFF
        let chunk3 = passcode.rawValue >> 14
        var digits: [UInt8] = []
        digits.reserveCapacity(21)
        append(chunk1, width: 1, to: &digits)
        append(chunk2, width: 5, to: &digits)
        append(chunk3, width: 4, to: &digits)
        if hasIDs {
            append(UInt32(vendorID?.rawValue ?? 0), width: 5, to: &digits)
            append(UInt32(productID?.rawValue ?? 0), width: 5, to: &digits)
        }
        let text = String(decoding: digits, as: UTF8.self)
        // The text is ASCII digits only, so a check digit always exists.
        let check = (try? Verhoeff.checkDigit(for: text)) ?? "0"
        return text + String(check)
    }

    /// Appends `value` in decimal as `width` ASCII digits, zero-padded.
    private func append(_ value: UInt32, width: Int, to digits: inout [UInt8]) {
        var divisor: UInt32 = 1
        for _ in 1..<width { divisor *= 10 }
        for _ in 0..<width {
            digits.append(UInt8(value / divisor % 10) + 0x30)
            divisor /= 10
        }
    }
}
