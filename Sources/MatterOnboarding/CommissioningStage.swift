/// A stage of commissioning one Matter device into a structure, in the order they happen.
///
/// tbrd reports each stage as it reaches it: the stages it performs itself (`queued`, `validated`,
/// `networkSelected`, `credentialsHandedOver`, `commissioning`, `complete`) and the stages the commissioner
/// backend reports (`nodeAdded`, `interviewed`). A payload ends `complete` or `failed`; a failure names
/// the stage that failed. Which backend reports which stage is in docs/dbus-api.md.
public enum CommissioningStage: String, CaseIterable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The payload was parsed, checked against the specification's rules and queued.
    case queued
    /// Its turn came, and it can be commissioned this way (its discovery capabilities fit the options).
    case validated
    /// The Thread network was chosen and its active dataset read from an online border router.
    case networkSelected
    /// The network's credentials (its active dataset) were handed to the commissioner.
    case credentialsHandedOver
    /// The commissioner was asked to commission the device.
    case commissioning
    /// The device is a node of the fabric: the commissioner gave it a node ID.
    case nodeAdded
    /// The commissioner read the node's description (vendor and product IDs).
    case interviewed
    /// The node is recorded in its structure: done.
    case complete
    /// The payload failed; the failure names the stage that failed.
    case failed

    /// The stages a payload passes through on success, in order.
    public static let successPath: [CommissioningStage] = [
        .queued, .validated, .networkSelected, .credentialsHandedOver, .commissioning, .nodeAdded, .interviewed, .complete,
    ]

    /// Whether the payload is finished at this stage.
    public var isFinal: Bool { self == .complete || self == .failed }

    /// The stage's position on ``successPath`` (`failed` sorts last).
    public var order: Int { Self.successPath.firstIndex(of: self) ?? Self.successPath.count }

    public var description: String { rawValue }
}
