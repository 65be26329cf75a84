import MatterOnboarding

/// Onboarding payloads with their expected fields. Every value was checked against the CHIP SDK's own
/// parser (PyPI home-assistant-chip-core 2025.7.0, `chip.setup_payload.SetupPayload.ParseQrCode` /
/// `ParseManualPairingCode`); the payloads come from the SDK's tests (`src/setup_payload/tests/`,
/// `TestHelpers.h` and `run_python_setup_payload_test.py`), its example apps and
/// /work/shared/vectors (TV-VERHOEFF).
enum Vectors {
    /// A QR code and what it holds.
    struct QR: Sendable, CustomStringConvertible {
        var code: String
        var vendor: UInt16
        var product: UInt16
        var flow: CommissioningFlow
        var capabilities: UInt8
        var discriminator: UInt16
        var passcode: UInt32
        /// The equivalent manual code, as the SDK generates it.
        var manual: String
        var description: String { code }
    }

    /// A manual code and what it holds.
    struct Manual: Sendable, CustomStringConvertible {
        var code: String
        /// Vendor and product IDs; nil for an 11-digit code.
        var ids: (vendor: UInt16, product: UInt16)?
        var shortDiscriminator: UInt8
        var passcode: UInt32
        var description: String { code }
    }

    static let qrCodes: [QR] = [
        // The SDK's example apps: vendor 0xFFF1, discriminator 3840, passcode 20202021.
        QR(code: "MT:Y.K9042C00KA0648G00", vendor: 0xFFF1, product: 0x8000, flow: .standard, capabilities: 0x02,
           discriminator: 3840, passcode: 20202021, manual: "34970112332"),
        QR(code: "MT:-24J0AFN00KA0648G00", vendor: 0xFFF1, product: 0x8001, flow: .standard, capabilities: 0x04,
           discriminator: 3840, passcode: 20202021, manual: "34970112332"),
        QR(code: "MT:-24J042C00KA0648G00", vendor: 0xFFF1, product: 0x8001, flow: .standard, capabilities: 0x02,
           discriminator: 3840, passcode: 20202021, manual: "34970112332"),
        QR(code: "MT:00000CQM00KA0648G00", vendor: 0, product: 0, flow: .standard, capabilities: 0x04,
           discriminator: 3840, passcode: 20202021, manual: "34970112332"),
        // TestHelpers.h's default payload.
        QR(code: "MT:M5L90MP500K64J00000", vendor: 12, product: 1, flow: .standard, capabilities: 0x01,
           discriminator: 128, passcode: 2048, manual: "00204800002"),
        // run_python_setup_payload_test.py
        QR(code: "MT:U9VJ0OMV172PX813210", vendor: 4891, product: 2, flow: .standard, capabilities: 0x02,
           discriminator: 3431, passcode: 49910688, manual: "32140830464"),
        QR(code: "MT:A3L90ARR15G6N57Y900", vendor: 1, product: 1, flow: .userIntent, capabilities: 0x04,
           discriminator: 3781, passcode: 12349876, manual: "745492075300001000013"),
        QR(code: "MT:MZWA6G6026O2XP0II00", vendor: 0xFFF3, product: 0x8098, flow: .custom, capabilities: 0x04,
           discriminator: 2310, passcode: 23005908, manual: "619156140465523329207"),
        QR(code: "MT:KSNK4M5113-JPR4UY00", vendor: 0x1123, product: 0x0012, flow: .custom, capabilities: 0x02,
           discriminator: 3091, passcode: 43338551, manual: "702871264504387000187"),
        QR(code: "MT:0A.T0P--00Y0OJ0.510", vendor: 0x2345, product: 0x1023, flow: .custom, capabilities: 0x06,
           discriminator: 80, passcode: 54757432, manual: "402104334209029041311"),
        QR(code: "MT:0A.T0RTM00Y0OJ0.510", vendor: 0x2345, product: 0x1023, flow: .standard, capabilities: 0x04,
           discriminator: 80, passcode: 54757432, manual: "00210433428"),
        QR(code: "MT:EPX0482F26DAVY09R10", vendor: 0x45, product: 0x10, flow: .userIntent, capabilities: 0x07,
           discriminator: 174, passcode: 81235604, manual: "403732495800069000166"),
    ]

    static let manualCodes: [Manual] = [
        Manual(code: "34970112332", ids: nil, shortDiscriminator: 15, passcode: 20202021),
        Manual(code: "749701123365521327694", ids: (0xFFF1, 0x8001), shortDiscriminator: 15, passcode: 20202021),
        Manual(code: "745492075300001000013", ids: (1, 1), shortDiscriminator: 14, passcode: 12349876),
        Manual(code: "619156140465523329207", ids: (65523, 32920), shortDiscriminator: 9, passcode: 23005908),
        Manual(code: "702871264504387000187", ids: (4387, 18), shortDiscriminator: 12, passcode: 43338551),
        Manual(code: "402104334209029041311", ids: (9029, 4131), shortDiscriminator: 0, passcode: 54757432),
        Manual(code: "403732495800069000166", ids: (69, 16), shortDiscriminator: 0, passcode: 81235604),
        Manual(code: "00210433428", ids: nil, shortDiscriminator: 0, passcode: 54757432),
        Manual(code: "32140830464", ids: nil, shortDiscriminator: 13, passcode: 49910688),
    ]
}
