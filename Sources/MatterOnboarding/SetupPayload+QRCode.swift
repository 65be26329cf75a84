extension SetupPayload {
    /// Parses a QR code payload: `MT:`, then Base38 of the 88 bits of fixed fields (see
    /// ``PayloadBits``) and of the optional TLV data, if any (Matter Core Specification, section 5.1.3).
    /// - Throws: ``SetupPayloadError``: not `MT:`, not Base38, too short, padding not zero, malformed
    ///   optional data, several payloads joined with `*`, or a rule broken (a reserved vendor ID or a
    ///   zero product ID only show in ``warnings``).
    public init(qrCode text: String) throws(SetupPayloadError) {
        guard text.hasPrefix(PayloadKind.qrCodePrefix) else { throw .missingQRCodePrefix }
        guard text.utf8.count <= SetupPayloadError.maximumLength else { throw .tooLong(text.count) }
        let body = text.dropFirst(PayloadKind.qrCodePrefix.count)
        if body.utf8.contains(UInt8(ascii: "*")) {
            throw .multiplePayloads(body.split(separator: "*", omittingEmptySubsequences: false).count)
        }
        let bytes: [UInt8]
        do {
            bytes = try Base38.decode(body)
        } catch {
            throw .base38(error)
        }
        guard bytes.count >= PayloadBits.byteCount else { throw .qrCodeTooShort(bytes.count) }

        var bits = PayloadBits(reading: bytes)
        let version = UInt8(bits.read(PayloadBits.Width.version))
        let vendor = VendorID(UInt16(bits.read(PayloadBits.Width.vendorID)))
        let product = ProductID(UInt16(bits.read(PayloadBits.Width.productID)))
        let flowValue = UInt8(bits.read(PayloadBits.Width.commissioningFlow))
        let capabilities = DiscoveryCapabilities(rawValue: UInt8(bits.read(PayloadBits.Width.discoveryCapabilities)))
        let discriminator = UInt16(bits.read(PayloadBits.Width.discriminator))
        let passcode = Passcode(unchecked: bits.read(PayloadBits.Width.passcode))
        let padding = UInt8(bits.read(PayloadBits.Width.padding))
        guard padding == 0 else { throw .nonZeroPadding(padding) }
        // A later version may lay out the rest differently: stop before reading it.
        guard version == 0 else { throw .ruleBroken(.unsupportedVersion(version)) }
        guard let flow = CommissioningFlow(rawValue: flowValue) else {
            throw .ruleBroken(.reservedCommissioningFlow(flowValue))
        }

        self.init(
            version: version, vendorID: vendor, productID: product, commissioningFlow: flow,
            discoveryCapabilities: capabilities, discriminator: .long(discriminator), passcode: passcode)
        if bytes.count > PayloadBits.byteCount {
            let elements: [OptionalDataElement]
            do {
                elements = try OptionalDataCodec.decode(bytes[PayloadBits.byteCount...])
            } catch {
                throw .optionalData(error)
            }
            try assignOptionalData(elements)
        }
        try validateParsed(as: .qrCode)
    }

    /// The QR code payload, `MT:` and Base38: the fixed fields, then the optional data as TLV when the
    /// payload has any (Matter Core Specification, section 5.1.3).
    ///
    /// Missing vendor and product IDs are written as 0x0000.
    /// - Throws: ``SetupPayloadError/ruleBroken(_:)`` for the first rule the payload breaks as a QR code.
    public func qrCode() throws(SetupPayloadError) -> String {
        try validate(for: .qrCode)
        var bits = PayloadBits()
        bits.write(UInt32(version), PayloadBits.Width.version)
        bits.write(UInt32((vendorID ?? .unspecified).rawValue), PayloadBits.Width.vendorID)
        bits.write(UInt32(productID?.rawValue ?? 0), PayloadBits.Width.productID)
        bits.write(UInt32(commissioningFlow.rawValue), PayloadBits.Width.commissioningFlow)
        bits.write(UInt32(discoveryCapabilities?.rawValue ?? 0), PayloadBits.Width.discoveryCapabilities)
        bits.write(UInt32(discriminator.value), PayloadBits.Width.discriminator)
        bits.write(passcode.rawValue, PayloadBits.Width.passcode)
        bits.write(0, PayloadBits.Width.padding)
        var bytes = bits.bytes
        let elements = optionalDataElements
        if !elements.isEmpty { bytes += OptionalDataCodec.encode(elements) }
        return PayloadKind.qrCodePrefix + Base38.encode(bytes)
    }
}
