public import MatterOnboarding

/// A node a commissioner added to its fabric.
public struct CommissionedNode: Hashable, Sendable {
    /// Its node ID.
    public var nodeID: NodeID
    /// Its vendor ID (BasicInformation, attribute 0/40/2), when the interview read it.
    public var vendorID: UInt16?
    /// Its product ID (BasicInformation, attribute 0/40/4), when the interview read it.
    public var productID: UInt16?
    /// Its NodeLabel (BasicInformation, attribute 0/40/5), when the interview read one that is not empty.
    public var label: String?
    /// Whether the commissioner has a live connection to it (python-matter-server's `available`).
    public var isAvailable: Bool

    /// A node as given.
    public init(nodeID: NodeID, vendorID: UInt16?, productID: UInt16?, label: String? = nil, isAvailable: Bool = true) {
        self.nodeID = nodeID
        self.vendorID = vendorID
        self.productID = productID
        self.label = label
        self.isAvailable = isAvailable
    }
}

/// What a commissioner reports while it commissions one device.
public enum CommissionerProgress: Hashable, Sendable {
    /// The device is a node of the fabric, with this node ID.
    case nodeAdded(NodeID)
    /// The node was interviewed: its vendor and product IDs (nil when not read).
    case interviewed(vendorID: UInt16?, productID: UInt16?)
}

/// The codes another controller commissions a shared node with. Secrets (they hold a fresh passcode):
/// shown to the person who asked, never logged.
public struct SharingCodes: Hashable, Sendable, CustomStringConvertible, CustomReflectable {
    /// The 11-digit manual pairing code.
    public var manualCode: String
    /// The QR code text (`MT:…`).
    public var qrCode: String

    /// Codes as given.
    public init(manualCode: String, qrCode: String) {
        self.manualCode = manualCode
        self.qrCode = qrCode
    }

    public var description: String { "SharingCodes(<redacted>)" }
    public var customMirror: Mirror { Mirror(self, children: []) }
}
