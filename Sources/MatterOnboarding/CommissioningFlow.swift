/// How a device enters commissioning mode (Matter Core Specification, section 5.1.3.1, the
/// 2-bit Custom Flow field of the QR code; the manual code's VID_PID_PRESENT bit tells only
/// standard from not standard).
public enum CommissioningFlow: UInt8, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    /// 0: the device enters commissioning mode by itself when it powers up uncommissioned.
    case standard = 0
    /// 1: a person must do something on the device (press a button) before it can be commissioned.
    case userIntent = 1
    /// 2: the vendor's own steps are needed first; a commissioner reads them from the Distributed
    /// Compliance Ledger.
    case custom = 2

    /// The name in tbrctl's JSON: `standard`, `userIntent` or `custom`.
    public var name: String {
        switch self {
        case .standard: "standard"
        case .userIntent: "userIntent"
        case .custom: "custom"
        }
    }

    /// The same as ``name``.
    public var description: String { name }
}
