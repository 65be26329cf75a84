public import DBus

extension TBRDBusAPI.BorderRouter {
    /// `GetMeshTopology() → (x partitionId, i leaderRouterId, a(sqsbas) onMeshPrefixes, a(sqsb) externalRoutes,
    /// a(sqssiixbbbxsa(qii)) nodes)`: the mesh as the router's agent sees it now, read fresh and bounded in time.
    public static let getMeshTopology = MethodContract("GetMeshTopology", outputs: MeshTopologyReply.declaration)
}

extension TBRDBusAPI.Manager {
    /// `Diagnose(s router) → a(ssss)`: tbrd's checks of one router (empty: the only one) and of this
    /// host, one row each: `(s id, s status, s message, s fix)`, status `pass`, `warn`, `fail` or
    /// `unsupported`.
    public static let diagnose = MethodContract(
        "Diagnose", inputs: [Argument("router", .string)], outputs: [Argument("checks", [DiagnosticRow].dbusType)])
}

/// The reply of `GetMeshTopology`. -1 stands for "unknown" in the number fields.
public struct MeshTopologyReply: ContractArguments {
    /// The partition id; -1 while detached.
    public var partitionId: Int64
    /// The leader's router id; -1 while detached.
    public var leaderRouterId: Int32
    /// The network data's on-mesh prefixes.
    public var onMeshPrefixes: [MeshPrefixRow]
    /// The network data's external routes.
    public var externalRoutes: [MeshRouteRow]
    /// The border router first, then every node it knows.
    public var nodes: [MeshNodeRow]
    /// Where the view ends, when it is not the whole mesh (why no more was read); empty: the whole mesh.
    public var horizon: String

    public static let declaration = [
        Argument("partitionId", .int64), Argument("leaderRouterId", .int32),
        Argument("onMeshPrefixes", [MeshPrefixRow].dbusType), Argument("externalRoutes", [MeshRouteRow].dbusType),
        Argument("nodes", [MeshNodeRow].dbusType), Argument("horizon", .string),
    ]

    public init(
        partitionId: Int64, leaderRouterId: Int32, onMeshPrefixes: [MeshPrefixRow], externalRoutes: [MeshRouteRow],
        nodes: [MeshNodeRow], horizon: String = ""
    ) {
        self.horizon = horizon
        self.partitionId = partitionId
        self.leaderRouterId = leaderRouterId
        self.onMeshPrefixes = onMeshPrefixes
        self.externalRoutes = externalRoutes
        self.nodes = nodes
    }

    public init(arguments: [DBusValue]) throws(DBusValueError) {
        var f = try Self.reader(arguments)
        self.init(
            partitionId: try f.next(), leaderRouterId: try f.next(), onMeshPrefixes: try f.next(), externalRoutes: try f.next(),
            nodes: try f.next(), horizon: try f.next())
    }

    public var arguments: [DBusValue] {
        [.int64(partitionId), .int32(leaderRouterId), onMeshPrefixes.dbusValue, externalRoutes.dbusValue, nodes.dbusValue, .string(horizon)]
    }
}

/// An on-mesh prefix of `GetMeshTopology`: `(s prefix, q rloc16, s preference, b omr, as flags)`; the
/// flags are the names of those set (`preferred`, `slaac`, `dhcp`, `configure`, `defaultRoute`, `onMesh`,
/// `stable`, `ndDns`, `domainPrefix`).
public struct MeshPrefixRow: ContractRow {
    public var prefix: String
    public var rloc16: UInt16
    public var preference: String
    public var omr: Bool
    public var flags: [String]

    public static let fields = [
        Argument("prefix", .string), Argument("rloc16", .uint16), Argument("preference", .string), Argument("omr", .boolean),
        Argument("flags", .array(.string)),
    ]

    public init(prefix: String, rloc16: UInt16, preference: String, omr: Bool, flags: [String]) {
        self.prefix = prefix
        self.rloc16 = rloc16
        self.preference = preference
        self.omr = omr
        self.flags = flags
    }

    public init(dbusValue: DBusValue) throws(DBusValueError) {
        var f = try StructReader(dbusValue, fieldCount: Self.fields.count)
        self.init(prefix: try f.next(), rloc16: try f.next(), preference: try f.next(), omr: try f.next(), flags: try f.next())
    }

    public var dbusValue: DBusValue {
        .structure([.string(prefix), .uint16(rloc16), .string(preference), .bool(omr), flags.dbusValue])
    }
}

/// An external route of `GetMeshTopology`: `(s prefix, q rloc16, s preference, b stable)`.
public struct MeshRouteRow: ContractRow {
    public var prefix: String
    public var rloc16: UInt16
    public var preference: String
    public var stable: Bool

    public static let fields = [
        Argument("prefix", .string), Argument("rloc16", .uint16), Argument("preference", .string), Argument("stable", .boolean),
    ]

    public init(prefix: String, rloc16: UInt16, preference: String, stable: Bool) {
        self.prefix = prefix
        self.rloc16 = rloc16
        self.preference = preference
        self.stable = stable
    }

    public init(dbusValue: DBusValue) throws(DBusValueError) {
        var f = try StructReader(dbusValue, fieldCount: Self.fields.count)
        self.init(prefix: try f.next(), rloc16: try f.next(), preference: try f.next(), stable: try f.next())
    }

    public var dbusValue: DBusValue { .structure([.string(prefix), .uint16(rloc16), .string(preference), .bool(stable)]) }
}

/// A node of `GetMeshTopology`: `(s extAddress, q rloc16, s role, s source, i linkQualityIn,
/// i linkQualityOut, x age, b modeKnown, b rxOnWhenIdle, b fullThreadDevice, x timeout, s parent,
/// a(qii) links)`; `links` are a router's radio links to other routers: (their rloc16, link quality in, out).
/// `role` is `leader`, `router` or `child`; `source` `self`, `neighborTable` or `diagnostics`; -1 is
/// "unknown" in the number fields, `parent` is the extended address of a child's router or empty.
public struct MeshNodeRow: ContractRow {
    public var extAddress: String
    public var rloc16: UInt16
    public var role: String
    public var source: String
    public var linkQualityIn: Int32
    public var linkQualityOut: Int32
    public var age: Int64
    public var modeKnown: Bool
    public var rxOnWhenIdle: Bool
    public var fullThreadDevice: Bool
    public var timeout: Int64
    public var parent: String
    public var links: [MeshLinkRow]

    public static let fields = [
        Argument("extAddress", .string), Argument("rloc16", .uint16), Argument("role", .string), Argument("source", .string),
        Argument("linkQualityIn", .int32), Argument("linkQualityOut", .int32), Argument("age", .int64),
        Argument("modeKnown", .boolean), Argument("rxOnWhenIdle", .boolean), Argument("fullThreadDevice", .boolean),
        Argument("timeout", .int64), Argument("parent", .string), Argument("links", [MeshLinkRow].dbusType),
    ]

    public init(
        extAddress: String, rloc16: UInt16, role: String, source: String, linkQualityIn: Int32, linkQualityOut: Int32,
        age: Int64, modeKnown: Bool, rxOnWhenIdle: Bool, fullThreadDevice: Bool, timeout: Int64, parent: String,
        links: [MeshLinkRow]
    ) {
        self.extAddress = extAddress
        self.rloc16 = rloc16
        self.role = role
        self.source = source
        self.linkQualityIn = linkQualityIn
        self.linkQualityOut = linkQualityOut
        self.age = age
        self.modeKnown = modeKnown
        self.rxOnWhenIdle = rxOnWhenIdle
        self.fullThreadDevice = fullThreadDevice
        self.timeout = timeout
        self.parent = parent
        self.links = links
    }

    public init(dbusValue: DBusValue) throws(DBusValueError) {
        var f = try StructReader(dbusValue, fieldCount: Self.fields.count)
        self.init(
            extAddress: try f.next(), rloc16: try f.next(), role: try f.next(), source: try f.next(), linkQualityIn: try f.next(),
            linkQualityOut: try f.next(), age: try f.next(), modeKnown: try f.next(), rxOnWhenIdle: try f.next(),
            fullThreadDevice: try f.next(), timeout: try f.next(), parent: try f.next(), links: try f.next())
    }

    public var dbusValue: DBusValue {
        .structure([
            .string(extAddress), .uint16(rloc16), .string(role), .string(source), .int32(linkQualityIn), .int32(linkQualityOut),
            .int64(age), .bool(modeKnown), .bool(rxOnWhenIdle), .bool(fullThreadDevice), .int64(timeout), .string(parent),
            links.dbusValue,
        ])
    }
}

/// A router's link of `GetMeshTopology`: `(q rloc16, i linkQualityIn, i linkQualityOut)`, -1 unknown.
public struct MeshLinkRow: ContractRow {
    public var rloc16: UInt16
    public var linkQualityIn: Int32
    public var linkQualityOut: Int32

    public static let fields = [Argument("rloc16", .uint16), Argument("linkQualityIn", .int32), Argument("linkQualityOut", .int32)]

    public init(rloc16: UInt16, linkQualityIn: Int32, linkQualityOut: Int32) {
        self.rloc16 = rloc16
        self.linkQualityIn = linkQualityIn
        self.linkQualityOut = linkQualityOut
    }

    public init(dbusValue: DBusValue) throws(DBusValueError) {
        var f = try StructReader(dbusValue, fieldCount: Self.fields.count)
        self.init(rloc16: try f.next(), linkQualityIn: try f.next(), linkQualityOut: try f.next())
    }

    public var dbusValue: DBusValue { .structure([.uint16(rloc16), .int32(linkQualityIn), .int32(linkQualityOut)]) }
}

/// One check of `Manager1.Diagnose`: `(s id, s status, s message, s fix)`.
public struct DiagnosticRow: ContractRow {
    /// The check's id (`agent-attached`, `omr-route`, …).
    public var id: String
    /// `pass`, `warn`, `fail` or `unsupported`.
    public var status: String
    /// What was read and what it means.
    public var message: String
    /// What to do about it; empty when it passed.
    public var fix: String

    public static let fields = [
        Argument("id", .string), Argument("status", .string), Argument("message", .string), Argument("fix", .string),
    ]

    public init(id: String, status: String, message: String, fix: String) {
        self.id = id
        self.status = status
        self.message = message
        self.fix = fix
    }

    public init(dbusValue: DBusValue) throws(DBusValueError) {
        var f = try StructReader(dbusValue, fieldCount: Self.fields.count)
        self.init(id: try f.next(), status: try f.next(), message: try f.next(), fix: try f.next())
    }

    public var dbusValue: DBusValue { .structure([.string(id), .string(status), .string(message), .string(fix)]) }
}
