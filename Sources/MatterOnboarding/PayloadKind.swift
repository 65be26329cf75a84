/// The two forms of a Matter onboarding payload (Matter Core Specification, section 5.1.3 and 5.1.4).
public enum PayloadKind: String, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    /// A QR code: `MT:` and Base38, carrying every field and optional TLV data.
    case qrCode = "qr"
    /// A manual pairing code: 11 digits, or 21 with the vendor and product IDs.
    case manualCode = "manual"

    /// The prefix of every QR code payload.
    public static let qrCodePrefix = "MT:"

    /// The form `text` is written in: a QR code when it starts with `MT:`, else a manual code.
    public init(detecting text: some StringProtocol) {
        self = text.hasPrefix(Self.qrCodePrefix) ? .qrCode : .manualCode
    }

    /// `qr` or `manual`, as tbrctl's JSON names them.
    public var description: String { rawValue }
}
