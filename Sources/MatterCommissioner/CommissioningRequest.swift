public import MatterOnboarding

/// One device to commission: its parsed payload, the setup code to hand over, and how to find it.
///
/// The code holds the setup passcode: ``description`` and reflection show it redacted, and nothing logs
/// it. It is given to the commissioner only.
public struct CommissioningRequest: Hashable, Sendable, CustomStringConvertible, CustomReflectable {
    /// The parsed payload (its passcode redacted in every description).
    public var payload: SetupPayload
    /// The code to hand over: the QR code as given, or the manual code's digits. A secret.
    public var code: String
    /// The device is already on the network (found by mDNS, no credentials handed over, no BLE).
    public var onNetwork: Bool
    /// Who asks, for logs: `session/payload`.
    public var reference: String

    /// A request as given.
    public init(payload: SetupPayload, code: String, onNetwork: Bool, reference: String) {
        self.payload = payload
        self.code = code
        self.onNetwork = onNetwork
        self.reference = reference
    }

    /// The code to hand to a commissioner for `text` as a person typed it: the QR code as it is, or a
    /// manual code's digits without the spaces and dashes the CHIP SDK does not accept.
    public static func code(from text: String) -> String {
        text.hasPrefix(PayloadKind.qrCodePrefix) ? text : String(text.filter { $0.isASCII && $0.isNumber })
    }

    public var description: String {
        "CommissioningRequest(\(reference), discriminator \(payload.discriminator), onNetwork \(onNetwork), code <redacted>)"
    }

    public var customMirror: Mirror { Mirror(self, children: ["reference": reference, "onNetwork": onNetwork]) }
}
