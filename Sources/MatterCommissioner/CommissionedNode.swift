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
    /// Its Thread parent as it last reported it (Thread Network Diagnostics' NeighborTable, 0/53/7: the
    /// one neighbour that is not its child); nil when it reported none, or several (a router has no parent).
    public var threadParent: ThreadNeighbor?

    /// A node as given.
    public init(
        nodeID: NodeID, vendorID: UInt16?, productID: UInt16?, label: String? = nil, isAvailable: Bool = true, threadParent: ThreadNeighbor? = nil
    ) {
        self.nodeID = nodeID
        self.vendorID = vendorID
        self.productID = productID
        self.label = label
        self.isAvailable = isAvailable
        self.threadParent = threadParent
    }
}

/// A Thread neighbour a Matter node reports (NeighborTableStruct of Thread Network Diagnostics).
public struct ThreadNeighbor: Hashable, Sendable {
    /// Its IEEE 802.15.4 extended address.
    public var extAddress: UInt64
    /// The link quality indicator the node measures (0–255), when reported.
    public var lqi: UInt8?
    /// The average RSSI in dBm, when reported.
    public var averageRssi: Int8?

    public init(extAddress: UInt64, lqi: UInt8?, averageRssi: Int8?) {
        self.extAddress = extAddress
        self.lqi = lqi
        self.averageRssi = averageRssi
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
