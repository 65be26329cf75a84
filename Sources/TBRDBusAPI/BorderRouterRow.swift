public import DBus
public import DeviceModel

/// One router of `Manager1.ListBorderRouters`: `(o path, s id, s interface, b online, s role,
/// s networkName, s extPanId, b epskcSupported)`. Empty strings stand for "none".
public struct BorderRouterRow: ContractRow {
    public var path: ObjectPath
    public var id: String
    public var interface: String
    public var online: Bool
    public var role: String
    public var networkName: String
    public var extPanId: String
    public var epskcSupported: Bool

    public static let fields = [
        Argument("path", .objectPath), Argument("id", .string), Argument("interface", .string), Argument("online", .boolean),
        Argument("role", .string), Argument("networkName", .string), Argument("extPanId", .string),
        Argument("epskcSupported", .boolean),
    ]

    public init(
        path: ObjectPath, id: String, interface: String, online: Bool, role: String, networkName: String, extPanId: String,
        epskcSupported: Bool
    ) {
        self.path = path
        self.id = id
        self.interface = interface
        self.online = online
        self.role = role
        self.networkName = networkName
        self.extPanId = extPanId
        self.epskcSupported = epskcSupported
    }

    public init(dbusValue: DBusValue) throws(DBusValueError) {
        var f = try StructReader(dbusValue, fieldCount: Self.fields.count)
        self.init(
            path: try f.next(), id: try f.next(), interface: try f.next(), online: try f.next(), role: try f.next(),
            networkName: try f.next(), extPanId: try f.next(), epskcSupported: try f.next())
    }

    public var dbusValue: DBusValue {
        .structure([
            .objectPath(path), .string(id), .string(interface), .bool(online), .string(role), .string(networkName),
            .string(extPanId), .bool(epskcSupported),
        ])
    }
}

/// One structure of `Manager1.ListStructures`: `(o path, s name)`.
public struct StructureRow: ContractRow {
    public var path: ObjectPath
    public var name: String

    public static let fields = [Argument("path", .objectPath), Argument("name", .string)]

    public init(path: ObjectPath, name: String) {
        self.path = path
        self.name = name
    }

    public init(dbusValue: DBusValue) throws(DBusValueError) {
        var f = try StructReader(dbusValue, fieldCount: Self.fields.count)
        self.init(path: try f.next(), name: try f.next())
    }

    public var dbusValue: DBusValue { .structure([.objectPath(path), .string(name)]) }
}

/// One router of `Structure1.PolicyStatus`: `(s router, s state, s detail)`, the state `applied`,
/// `pending`, `failed` or `unsupported`; the detail says what failed or what the router lacks (never
/// empty then), or carries a note.
public struct PolicyStatusRow: ContractRow {
    /// The router's id.
    public var router: String
    /// `applied`, `pending`, `failed` or `unsupported` (decoded here: a name outside them is refused).
    public var state: RouterPolicyStatus.State
    /// What failed, what the router lacks, or a note; `""` for none.
    public var detail: String

    public static let fields = [Argument("router", .string), Argument("state", .string), Argument("detail", .string)]

    public init(router: String, state: RouterPolicyStatus.State, detail: String) {
        self.router = router
        self.state = state
        self.detail = detail
    }

    public init(dbusValue: DBusValue) throws(DBusValueError) {
        var f = try StructReader(dbusValue, fieldCount: Self.fields.count)
        let router: String = try f.next(), text: String = try f.next()
        guard let state = RouterPolicyStatus.State(rawValue: text) else {
            throw .invalid("a policy state \"\(text.prefix(40))\" is not applied, pending, failed or unsupported")
        }
        self.init(router: router, state: state, detail: try f.next())
    }

    public var dbusValue: DBusValue { .structure([.string(router), .string(state.rawValue), .string(detail)]) }
}
