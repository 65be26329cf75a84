extension StateBitmap.ConnectionMode {
    /// "disabled", "pskc", "pskd", "vendor", "x509" or "other(5)".
    public var name: String {
        switch self {
        case .disabled: "disabled"
        case .pskc: "pskc"
        case .pskd: "pskd"
        case .vendor: "vendor"
        case .x509: "x509"
        case .other(let v): "other(\(v))"
        }
    }
}

extension StateBitmap.InterfaceStatus {
    /// "notInitialized", "initialized", "active" or "other(3)".
    public var name: String {
        switch self {
        case .notInitialized: "notInitialized"
        case .initialized: "initialized"
        case .active: "active"
        case .other(let v): "other(\(v))"
        }
    }
}

extension StateBitmap.Availability {
    /// "infrequent", "high" or "other(2)".
    public var name: String {
        switch self {
        case .infrequent: "infrequent"
        case .high: "high"
        case .other(let v): "other(\(v))"
        }
    }
}

extension StateBitmap.ThreadRole {
    /// "disabledOrDetached", "child", "router" or "leader".
    public var name: String {
        switch self {
        case .disabledOrDetached: "disabledOrDetached"
        case .child: "child"
        case .router: "router"
        case .leader: "leader"
        }
    }
}

/// JSON form: the raw value as hex and every field by name:
/// `{"raw": "0x000001b1", "connectionMode": "pskc", "interfaceStatus": "active", "availability": "high",
/// "bbrActive": true, "bbrPrimary": true, "threadRole": "disabledOrDetached", "epskcSupported": false,
/// "unknownBits": "0x00000000"}`. Decoding reads `raw` only; the named fields are derived from it.
extension StateBitmap: Codable {
    private enum CodingKeys: String, CodingKey {
        case raw, connectionMode, interfaceStatus, availability, bbrActive, bbrPrimary, threadRole, epskcSupported
        case unknownBits
    }

    /// Decodes the object ``encode(to:)`` writes, from its `raw` field.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let text = try c.decode(String.self, forKey: .raw)
        guard let v = parseUInt(text, as: UInt32.self) else {
            throw DecodingError.dataCorruptedError(forKey: .raw, in: c, debugDescription: "raw is \"0x\" and 8 hex digits")
        }
        rawValue = v
    }

    /// Encodes the raw value and every named field.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode("0x" + hex8(rawValue), forKey: .raw)
        try c.encode(connectionMode.name, forKey: .connectionMode)
        try c.encode(interfaceStatus.name, forKey: .interfaceStatus)
        try c.encode(availability.name, forKey: .availability)
        try c.encode(isBBRActive, forKey: .bbrActive)
        try c.encode(isBBRPrimary, forKey: .bbrPrimary)
        try c.encode(threadRole.name, forKey: .threadRole)
        try c.encode(isEPSKcSupported, forKey: .epskcSupported)
        try c.encode("0x" + hex8(unknownBits), forKey: .unknownBits)
    }
}
