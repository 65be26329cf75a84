import MatterOnboarding
import MeshCoP

/// What `tbrctl matter parse` prints about a payload: the JSON object of the contract in docs/cli.md,
/// and the same fields as a table for people. The passcode and the manual code are secrets, redacted
/// unless the encoder reveals secrets (see MeshCoP's ``Secrets``).
struct MatterPayloadReport: Encodable {
    /// The payload.
    let payload: SetupPayload
    /// Whether it was read from a QR code or a manual code.
    let kind: PayloadKind
    /// The equivalent manual code.
    let manualCode: String

    private enum Key: String, CodingKey {
        case kind, version, vendorId, productId, commissioningFlow, discoveryCapabilities, discriminator
        case discriminatorIsShort, setupPasscode, serialNumber, vendorElements, manualCode
    }

    /// Every key of the contract; `vendorId`, `productId` and `discoveryCapabilities` are `null` when
    /// the code does not carry them, `serialNumber` and `vendorElements` appear only when present.
    func encode(to encoder: any Encoder) throws {
        let reveal = encoder.userInfo[.revealSecrets] as? Bool ?? false
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(kind.rawValue, forKey: .kind)
        try c.encode(payload.version, forKey: .version)
        try encodeOrNull(payload.vendorID?.rawValue, .vendorId, in: &c)
        try encodeOrNull(payload.productID?.rawValue, .productId, in: &c)
        try c.encode(payload.commissioningFlow.name, forKey: .commissioningFlow)
        try encodeOrNull(payload.discoveryCapabilities?.names, .discoveryCapabilities, in: &c)
        try c.encode(payload.discriminator.value, forKey: .discriminator)
        try c.encode(payload.discriminator.isShort, forKey: .discriminatorIsShort)
        try c.encode(payload.passcode, forKey: .setupPasscode)
        try c.encodeIfPresent(payload.serialNumber?.text, forKey: .serialNumber)
        if !payload.vendorElements.isEmpty {
            try c.encode(payload.vendorElements.map(ElementJSON.init), forKey: .vendorElements)
        }
        try c.encode(reveal ? manualCode : Secrets.redacted, forKey: .manualCode)
    }

    private func encodeOrNull(
        _ value: (some Encodable)?, _ key: Key, in c: inout KeyedEncodingContainer<Key>
    ) throws {
        if let value { try c.encode(value, forKey: key) } else { try c.encodeNil(forKey: key) }
    }

    /// One optional data element: `{"tag": 130, "type": "string", "value": "myData"}`.
    private struct ElementJSON: Encodable {
        let element: OptionalDataElement

        init(_ element: OptionalDataElement) { self.element = element }

        private enum Key: String, CodingKey { case tag, type, value }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Key.self)
            try c.encode(element.tag, forKey: .tag)
            try c.encode(element.value.typeName, forKey: .type)
            switch element.value {
            case .string(let s): try c.encode(s, forKey: .value)
            case .signedInteger(let v): try c.encode(v, forKey: .value)
            case .unsignedInteger(let v): try c.encode(v, forKey: .value)
            }
        }
    }

    /// The table for people; the passcode and manual code only when `revealSecrets`.
    func render(revealSecrets: Bool) -> String {
        var rows: [(String, String)] = []
        rows.append(("Payload", (kind == .qrCode ? "QR code" : "manual pairing code") + ", version \(payload.version)"))
        rows.append(("Vendor ID", payload.vendorID.map(describe) ?? "- (not in an 11-digit manual code)"))
        rows.append(("Product ID", payload.productID.map { "\($0) (\($0.rawValue))" } ?? "- (not in an 11-digit manual code)"))
        rows.append(("Commissioning flow", flowText))
        rows.append(("Discovery capabilities", payload.discoveryCapabilities.map(capabilitiesText) ?? "- (not in a manual code)"))
        rows.append(("Discriminator", discriminatorText))
        rows.append(("Setup passcode", revealSecrets ? payload.passcode.digits : Secrets.redacted))
        rows.append(("Manual code", revealSecrets ? manualCode : Secrets.redacted))
        if let serial = payload.serialNumber { rows.append(("Serial number", serial.text)) }
        for element in payload.commonElements + payload.vendorElements {
            let owner = OptionalDataElement.vendorTags.contains(element.tag) ? "Vendor" : "Common"
            rows.append(("\(owner) element \(hex(element.tag))", "\(element.value.typeName) \(element.value)"))
        }
        return TextTable.fields(rows)
    }

    /// `BLE, on-network` for people.
    private func capabilitiesText(_ capabilities: DiscoveryCapabilities) -> String {
        let names: [(DiscoveryCapabilities, String)] = [
            (.softAP, "soft-AP"), (.ble, "BLE"), (.onNetwork, "on-network"), (.wifiPAF, "Wi-Fi PAF"),
        ]
        return names.filter { capabilities.contains($0.0) }.map(\.1).joined(separator: ", ")
    }

    private func describe(_ vendor: VendorID) -> String {
        "\(vendor) (\(vendor.rawValue)" + (vendor.isTestVendor ? ", test vendor)" : vendor.isReserved ? ", reserved)" : ")")
    }

    private var flowText: String {
        switch (kind, payload.commissioningFlow) {
        case (.manualCode, .custom): "custom (the 21-digit code says only: not standard)"
        case (_, .standard): "standard"
        case (_, .userIntent): "userIntent (press something on the device first)"
        case (_, .custom): "custom (follow the vendor's steps first)"
        }
    }

    private var discriminatorText: String {
        switch payload.discriminator {
        case .long(let v): "\(v) (0x" + String(v, radix: 16, uppercase: true) + ")"
        case .short(let v): "\(v) (short: the top 4 of the 12 bits)"
        }
    }

    private func hex(_ tag: UInt8) -> String {
        let digits = String(tag, radix: 16, uppercase: true)
        return "0x" + (digits.count == 1 ? "0" : "") + digits
    }
}
