extension SetupPayload {
    /// Every rule of the Matter Core Specification (section 5.1) this payload breaks when written as
    /// `kind`, in the order they are checked: version, passcode, discriminator, discovery capabilities
    /// (QR code only), vendor ID, product ID, optional data (QR code only). Empty for a valid payload.
    ///
    /// The vendor and product IDs are checked where the code carries them: in a QR code, and in a
    /// manual code whose flow is not standard (the 21-digit form).
    public func violations(for kind: PayloadKind) -> [RuleViolation] {
        var found: [RuleViolation] = []
        if version != 0 { found.append(.unsupportedVersion(version)) }
        if let v = passcode.violation { found.append(v) }
        if !discriminator.isInRange { found.append(.discriminatorOutOfRange(discriminator)) }
        if kind == .qrCode {
            if discriminator.isShort { found.append(.shortDiscriminatorInQRCode) }
            let capabilities = discoveryCapabilities ?? []
            if capabilities.unknownBits != 0 { found.append(.unknownDiscoveryCapabilities(capabilities.unknownBits)) }
            if capabilities.intersection(.known).isEmpty { found.append(.noDiscoveryCapabilities) }
        }
        if kind == .qrCode || commissioningFlow != .standard {
            let vendor = vendorID ?? .unspecified
            if vendor.isReserved { found.append(.reservedVendorID(vendor)) }
            if (productID ?? ProductID(0)).rawValue == 0, vendor != .unspecified { found.append(.zeroProductID) }
        }
        if kind == .qrCode, let problem = optionalDataProblem { found.append(.optionalData(problem)) }
        return found
    }

    /// Checks the payload before it is written as `kind`.
    /// - Throws: ``SetupPayloadError/ruleBroken(_:)`` with the first rule broken.
    public func validate(for kind: PayloadKind) throws(SetupPayloadError) {
        if let first = violations(for: kind).first { throw .ruleBroken(first) }
    }

    /// Checks a payload just parsed as `kind`: like ``validate(for:)``, but the rules that parsing only
    /// warns about pass.
    func validateParsed(as kind: PayloadKind) throws(SetupPayloadError) {
        if let first = violations(for: kind).first(where: { !$0.isWarningOnParse }) { throw .ruleBroken(first) }
    }

    /// What is wrong with the optional data, or nil: tags out of their range, or used twice.
    private var optionalDataProblem: String? {
        var seen: Set<UInt8> = serialNumber == nil ? [] : [SerialNumber.tag]
        for element in commonElements {
            guard OptionalDataElement.commonTags.contains(element.tag) else {
                return "common element tag \(hex2(element.tag)) is outside 0x01 to 0x7F"
            }
            guard seen.insert(element.tag).inserted else { return "tag \(hex2(element.tag)) is used twice" }
        }
        for element in vendorElements {
            guard OptionalDataElement.vendorTags.contains(element.tag) else {
                return "vendor element tag \(hex2(element.tag)) is outside 0x80 to 0xFF"
            }
            guard seen.insert(element.tag).inserted else { return "tag \(hex2(element.tag)) is used twice" }
        }
        return nil
    }

    /// Sorts decoded optional data elements into the serial number, the common and the vendor elements.
    /// - Throws: ``SetupPayloadError/ruleBroken(_:)`` when the serial number has a type it cannot have.
    mutating func assignOptionalData(_ elements: [OptionalDataElement]) throws(SetupPayloadError) {
        for element in elements {
            switch element.tag {
            case SerialNumber.tag:
                guard let serial = SerialNumber(element.value) else {
                    let found = if case .signedInteger = element.value { "a signed integer" } else { "above 32 bits" }
                    throw .ruleBroken(.optionalData(
                        "the serial number (tag 0x00) must be a UTF-8 string or an unsigned integer of at most 32 bits, "
                            + "not \(found)"))
                }
                serialNumber = serial
            case OptionalDataElement.commonTags: commonElements.append(element)
            default: vendorElements.append(element)
            }
        }
    }

    /// The optional data elements in the order they are encoded: serial number, common, vendor.
    var optionalDataElements: [OptionalDataElement] {
        (serialNumber.map { [OptionalDataElement(tag: SerialNumber.tag, value: $0.value)] } ?? [])
            + commonElements + vendorElements
    }
}
