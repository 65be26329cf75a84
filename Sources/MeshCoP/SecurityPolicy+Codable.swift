extension SecurityPolicy: Codable {
    private enum CodingKeys: String, CodingKey {
        case rotationTimeHours, rotationTime, obtainNetworkKey, nativeCommissioning, routers, externalCommissioning, beacons,
             commercialCommissioning, autonomousEnrollment, networkKeyProvisioning, tobleLink, nonCcmRouters,
             versionThresholdForRouting
    }

    /// Decodes the object ``encode(to:)`` writes (OTBR's REST API's `rotationTime` is accepted for
    /// `rotationTimeHours`). Missing flags take the defaults of ``init()``; the result always has the
    /// 4-byte form with the reserved bits set.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init()
        func flag(_ key: CodingKeys, _ apply: (inout SecurityPolicy, Bool) -> Void) throws {
            if let v = try c.decodeIfPresent(Bool.self, forKey: key) { apply(&self, v) }
        }
        rotationTimeHours = try c.decodeIfPresent(UInt16.self, forKey: .rotationTimeHours)
            ?? c.decodeIfPresent(UInt16.self, forKey: .rotationTime) ?? rotationTimeHours
        try flag(.obtainNetworkKey) { $0.obtainNetworkKeyEnabled = $1 }
        try flag(.nativeCommissioning) { $0.nativeCommissioningEnabled = $1 }
        try flag(.routers) { $0.routersEnabled = $1 }
        try flag(.externalCommissioning) { $0.externalCommissioningEnabled = $1 }
        try flag(.beacons) { $0.beaconsEnabled = $1 }
        try flag(.commercialCommissioning) { $0.commercialCommissioningEnabled = $1 }
        try flag(.autonomousEnrollment) { $0.autonomousEnrollmentEnabled = $1 }
        try flag(.networkKeyProvisioning) { $0.networkKeyProvisioningEnabled = $1 }
        try flag(.tobleLink) { $0.tobleLinkEnabled = $1 }
        try flag(.nonCcmRouters) { $0.nonCCMRoutersEnabled = $1 }
        if let vr = try c.decodeIfPresent(UInt8.self, forKey: .versionThresholdForRouting) {
            guard vr <= 7 else {
                throw DecodingError.dataCorruptedError(
                    forKey: .versionThresholdForRouting, in: c, debugDescription: "the version threshold is 0–7")
            }
            versionThresholdForRouting = vr
        }
    }

    /// Encodes `{"rotationTimeHours": 672, "obtainNetworkKey": true, …, "versionThresholdForRouting": 0}`
    /// with every flag named and meaning "enabled" (inverted wire bits already resolved).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(rotationTimeHours, forKey: .rotationTimeHours)
        try c.encode(obtainNetworkKeyEnabled, forKey: .obtainNetworkKey)
        try c.encode(nativeCommissioningEnabled, forKey: .nativeCommissioning)
        try c.encode(routersEnabled, forKey: .routers)
        try c.encode(externalCommissioningEnabled, forKey: .externalCommissioning)
        try c.encode(beaconsEnabled, forKey: .beacons)
        try c.encode(commercialCommissioningEnabled, forKey: .commercialCommissioning)
        try c.encode(autonomousEnrollmentEnabled, forKey: .autonomousEnrollment)
        try c.encode(networkKeyProvisioningEnabled, forKey: .networkKeyProvisioning)
        try c.encode(tobleLinkEnabled, forKey: .tobleLink)
        try c.encode(nonCCMRoutersEnabled, forKey: .nonCcmRouters)
        try c.encode(versionThresholdForRouting, forKey: .versionThresholdForRouting)
    }
}
