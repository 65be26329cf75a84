import MatterOnboarding
public import DBus

extension TBRDBusAPI.Structure {
    /// `PrepareMatterCommissioning() → (s session, x expiresAt)`.
    public static let prepareMatterCommissioning = MethodContract(
        "PrepareMatterCommissioning", outputs: PrepareCommissioningReply.declaration)
    /// `Commission(s session, s payload, a{sv} options) → s payloadId`.
    public static let commission = MethodContract(
        "Commission",
        inputs: [Argument("session", .string), Argument("payload", .string), Argument("options", .dictionary(key: .string, value: .variant))],
        outputs: [Argument("payloadId", .string)])
    /// `CompleteMatterCommissioning(s session) → a(ssts)`.
    public static let completeMatterCommissioning = MethodContract(
        "CompleteMatterCommissioning", inputs: [Argument("session", .string)],
        outputs: [Argument("outcomes", [CommissioningOutcomeRow].dbusType)])
    /// `CancelMatterCommissioning(s session) → ()`.
    public static let cancelMatterCommissioning = MethodContract("CancelMatterCommissioning", inputs: [Argument("session", .string)])
    /// `ShareMatterNode(t node, q windowSeconds) → (s manualCode, s qrCode)`.
    public static let shareMatterNode = MethodContract(
        "ShareMatterNode", inputs: [Argument("node", .uint64), Argument("windowSeconds", .uint16)], outputs: ShareNodeReply.declaration)

    /// `AddRoom(s room) → ()`.
    public static let addRoom = MethodContract("AddRoom", inputs: [Argument("room", .string)])
    /// `RemoveRoom(s room) → ()`.
    public static let removeRoom = MethodContract("RemoveRoom", inputs: [Argument("room", .string)])
    /// `RenameMatterNode(t node, s name) → s labelProblem`: `""` when the device took the name as its NodeLabel.
    public static let renameMatterNode = MethodContract(
        "RenameMatterNode", inputs: [Argument("node", .uint64), Argument("name", .string)], outputs: [Argument("labelProblem", .string)])
    /// `MoveMatterNode(t node, s room) → ()`: an empty room places it in none.
    public static let moveMatterNode = MethodContract("MoveMatterNode", inputs: [Argument("node", .uint64), Argument("room", .string)])
    /// `RemoveMatterNode(t node, b force) → ()`.
    public static let removeMatterNode = MethodContract(
        "RemoveMatterNode", inputs: [Argument("node", .uint64), Argument("force", .boolean)])
    /// `AdoptMatterNode(t node) → ()`: records a node of the commissioner that no structure holds.
    public static let adoptMatterNode = MethodContract("AdoptMatterNode", inputs: [Argument("node", .uint64)])

    /// `CommissioningProgress(s session, s payloadId, s stage, a{sv} detail)`.
    public static let commissioningProgress = SignalContract("CommissioningProgress", arguments: CommissioningProgressSignal.declaration)

    /// The options of `Commission`: `network` (s, an extended PAN ID in hex), `onNetwork` (b), `name` (s,
    /// the node's name, at most 32 bytes) and `room` (s, a room of the structure).
    public enum CommissionOption {
        public static let network = "network"
        public static let onNetwork = "onNetwork"
        public static let name = "name"
        public static let room = "room"
        public static let all = [network, onNetwork, name, room]
    }

    /// The keys of `CommissioningProgress`'s detail.
    public enum ProgressDetail {
        /// `x`: when the stage was reached, milliseconds since the epoch (always present).
        public static let time = "time"
        /// `t`: the node ID (from `nodeAdded` on).
        public static let nodeId = "nodeId"
        /// `q`: the vendor ID (from `interviewed` on, when read).
        public static let vendorId = "vendorId"
        /// `q`: the product ID (from `interviewed` on, when read).
        public static let productId = "productId"
        /// `s`: the Thread network given to the device (from `networkSelected` on).
        public static let extPanId = "extPanId"
        /// `s`: what went wrong (`failed` only).
        public static let error = "error"
        /// `s`: the stage that failed (`failed` only).
        public static let failedStage = "failedStage"
        /// `s`: the node's name (`complete` only, when one was given).
        public static let name = "name"
        /// `s`: the node's room (`complete` only, when one was given).
        public static let room = "room"
        /// `s`: what did not work although the node is complete (`complete` only): the device refused its name.
        public static let warning = "warning"
    }

    /// The stages, as `CommissioningProgress` spells them.
    public static let stages = [
        "queued", "validated", "networkSelected", "credentialsHandedOver", "commissioning", "nodeAdded", "interviewed", "complete", "failed",
    ]

    /// The longest node name, in UTF-8 bytes (``MatterOnboarding/MatterLimits/nodeNameBytes``).
    public static let maximumNodeNameBytes = MatterLimits.nodeNameBytes

    /// The default and the limits of `ShareMatterNode`'s window (``MatterOnboarding/MatterLimits``).
    public static let shareWindowSeconds = MatterLimits.commissioningWindowSeconds
    public static let defaultShareWindowSeconds = MatterLimits.defaultCommissioningWindowSeconds
}

/// The reply of `PrepareMatterCommissioning`: `(s session, x expiresAt)`, the expiry in milliseconds
/// since the epoch.
public struct PrepareCommissioningReply: ContractArguments {
    public var session: String
    public var expiresAt: Int64

    public static let declaration = [Argument("session", .string), Argument("expiresAt", .int64)]

    public init(session: String, expiresAt: Int64) {
        self.session = session
        self.expiresAt = expiresAt
    }

    public init(arguments: [DBusValue]) throws(DBusValueError) {
        var f = try Self.reader(arguments)
        self.init(session: try f.next(), expiresAt: try f.next())
    }

    public var arguments: [DBusValue] { [.string(session), .int64(expiresAt)] }
}

/// The reply of `ShareMatterNode`: `(s manualCode, s qrCode)`, the codes another controller uses (they
/// hold a fresh passcode: shown to the caller, never logged).
public struct ShareNodeReply: ContractArguments {
    public var manualCode: String
    public var qrCode: String

    public static let declaration = [Argument("manualCode", .string), Argument("qrCode", .string)]

    public init(manualCode: String, qrCode: String) {
        self.manualCode = manualCode
        self.qrCode = qrCode
    }

    public init(arguments: [DBusValue]) throws(DBusValueError) {
        var f = try Self.reader(arguments)
        self.init(manualCode: try f.next(), qrCode: try f.next())
    }

    public var arguments: [DBusValue] { [.string(manualCode), .string(qrCode)] }
}

/// One payload's outcome in `CompleteMatterCommissioning`'s reply: `(s payloadId, s outcome, t nodeId,
/// s error)`, the outcome `complete` (nodeId set, error `""`) or `failed` (nodeId 0, error says why).
public struct CommissioningOutcomeRow: ContractRow {
    public var payloadId: String
    /// `complete` or `failed`.
    public var outcome: String
    public var nodeId: UInt64
    public var error: String

    public static let fields = [
        Argument("payloadId", .string), Argument("outcome", .string), Argument("nodeId", .uint64), Argument("error", .string),
    ]

    public init(payloadId: String, outcome: String, nodeId: UInt64, error: String) {
        self.payloadId = payloadId
        self.outcome = outcome
        self.nodeId = nodeId
        self.error = error
    }

    public init(dbusValue: DBusValue) throws(DBusValueError) {
        var f = try StructReader(dbusValue, fieldCount: Self.fields.count)
        self.init(payloadId: try f.next(), outcome: try f.next(), nodeId: try f.next(), error: try f.next())
    }

    public var dbusValue: DBusValue { .structure([.string(payloadId), .string(outcome), .uint64(nodeId), .string(error)]) }
}

/// One node of `Structure1.MatterNodes`: `(t nodeId, q vendorId, q productId, x commissionedAt, s name,
/// s room)`, the time in milliseconds since the epoch; vendor and product 0 when the commissioner did not
/// read them; name and room `""` when unset.
public struct MatterNodeRow: ContractRow {
    public var nodeId: UInt64
    public var vendorId: UInt16
    public var productId: UInt16
    public var commissionedAt: Int64
    public var name: String
    public var room: String

    public static let fields = [
        Argument("nodeId", .uint64), Argument("vendorId", .uint16), Argument("productId", .uint16), Argument("commissionedAt", .int64),
        Argument("name", .string), Argument("room", .string),
    ]

    public init(nodeId: UInt64, vendorId: UInt16, productId: UInt16, commissionedAt: Int64, name: String, room: String) {
        self.nodeId = nodeId
        self.vendorId = vendorId
        self.productId = productId
        self.commissionedAt = commissionedAt
        self.name = name
        self.room = room
    }

    public init(dbusValue: DBusValue) throws(DBusValueError) {
        var f = try StructReader(dbusValue, fieldCount: Self.fields.count)
        self.init(
            nodeId: try f.next(), vendorId: try f.next(), productId: try f.next(), commissionedAt: try f.next(), name: try f.next(),
            room: try f.next())
    }

    public var dbusValue: DBusValue {
        .structure([.uint64(nodeId), .uint16(vendorId), .uint16(productId), .int64(commissionedAt), .string(name), .string(room)])
    }
}

/// One node of `Manager1.UnclaimedMatterNodes`: `(t nodeId, q vendorId, q productId, b available, s label)`,
/// a node the commissioner has that no structure holds; vendor and product 0 when not read, label `""`
/// when the device has none.
public struct UnclaimedMatterNodeRow: ContractRow {
    public var nodeId: UInt64
    public var vendorId: UInt16
    public var productId: UInt16
    public var available: Bool
    public var label: String

    public static let fields = [
        Argument("nodeId", .uint64), Argument("vendorId", .uint16), Argument("productId", .uint16), Argument("available", .boolean),
        Argument("label", .string),
    ]

    public init(nodeId: UInt64, vendorId: UInt16, productId: UInt16, available: Bool, label: String) {
        self.nodeId = nodeId
        self.vendorId = vendorId
        self.productId = productId
        self.available = available
        self.label = label
    }

    public init(dbusValue: DBusValue) throws(DBusValueError) {
        var f = try StructReader(dbusValue, fieldCount: Self.fields.count)
        self.init(nodeId: try f.next(), vendorId: try f.next(), productId: try f.next(), available: try f.next(), label: try f.next())
    }

    public var dbusValue: DBusValue {
        .structure([.uint64(nodeId), .uint16(vendorId), .uint16(productId), .bool(available), .string(label)])
    }
}

/// The arguments of `Structure1.CommissioningProgress`: `(s session, s payloadId, s stage, a{sv} detail)`.
public struct CommissioningProgressSignal: ContractArguments {
    public var session: String
    public var payloadId: String
    /// One of ``TBRDBusAPI/Structure/stages``.
    public var stage: String
    /// Keys of ``TBRDBusAPI/Structure/ProgressDetail``; the values are unwrapped from their variants.
    public var detail: [String: DBusValue]

    public static let declaration = [
        Argument("session", .string), Argument("payloadId", .string), Argument("stage", .string),
        Argument("detail", .dictionary(key: .string, value: .variant)),
    ]

    public init(session: String, payloadId: String, stage: String, detail: [String: DBusValue]) {
        self.session = session
        self.payloadId = payloadId
        self.stage = stage
        self.detail = detail
    }

    public init(arguments: [DBusValue]) throws(DBusValueError) {
        var f = try Self.reader(arguments)
        self.init(session: try f.next(), payloadId: try f.next(), stage: try f.next(), detail: try f.next())
    }

    public var arguments: [DBusValue] {
        let entries = detail.keys.sorted().map { DBusValue.DictEntry(key: .string($0), value: .variant(detail[$0]!)) }
        return [.string(session), .string(payloadId), .string(stage), .dictionary(key: .string, value: .variant, entries)]
    }
}
