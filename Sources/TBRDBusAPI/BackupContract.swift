public import DBus

// Backups and recovery (issue 48): Manager1's CreateBackup and RestoreBackup, Structure1's Recovery,
// Recover and RouterEmpty. Admins only (io.tbrd.conf admits every other caller to listings only).

extension TBRDBusAPI.Manager {
    /// `CreateBackup(ay passphrase) → ay file`: a backup of now, sealed with the passphrase (at least 8
    /// bytes). The file holds network keys: it goes to this caller only.
    public static let createBackup = MethodContract(
        "CreateBackup", inputs: [Argument("passphrase", .array(.byte))], outputs: [Argument("file", .array(.byte))])
    /// `RestoreBackup(ay file, ay passphrase, b replace, b dry_run) → (b replaced, s previous_backup,
    /// a(sssss) recovery)`: the backup in place of tbrd's state (refused with `Busy` when tbrd has one and
    /// `replace` is false; replaced, it is written to `previous_backup` first). `dry_run`: every check,
    /// nothing changed. A wrong passphrase is `PermissionDenied`, a damaged file `InvalidArgument`.
    public static let restoreBackup = MethodContract(
        "RestoreBackup",
        inputs: [Argument("file", .array(.byte)), Argument("passphrase", .array(.byte)), Argument("replace", .boolean), Argument("dry_run", .boolean)],
        outputs: [Argument("replaced", .boolean), Argument("previous_backup", .string), Argument("recovery", [RecoveryRow].dbusType)])
}

extension TBRDBusAPI.Structure {
    /// `Recover(s router) → a(sssss)`: checks the structure's routers (or only `router`, when not empty) and
    /// joins each one with no network to the preferred network, whatever `Recovery` says.
    public static let recover = MethodContract(
        "Recover", inputs: [Argument("router", .string)], outputs: [Argument("routers", [RecoveryRow].dbusType)])
    /// `RouterEmpty(s router, s state, s network, s detail)`: a router of the structure was found with no
    /// network (`empty`, with `Recovery` ask), was joined back (`rejoined`), could not be (`failed`), or is
    /// on another network (`diverged`).
    public static let routerEmpty = SignalContract(
        "RouterEmpty", arguments: [Argument("router", .string), Argument("state", .string), Argument("network", .string), Argument("detail", .string)])
    /// The spellings of `Recovery`.
    public static let recoveryModes = ["off", "ask", "auto"]
}

/// What recovery found on a router: `(router, state, network, router_network, detail)`.
public struct RecoveryRow: ContractRow {
    public var router: String
    /// `ok`, `empty`, `rejoined`, `failed` or `diverged`.
    public var state: String
    /// The structure's preferred network (Extended PAN ID).
    public var network: String
    /// The network the router is on when diverged; else empty.
    public var routerNetwork: String
    public var detail: String

    public static let fields = [
        Argument("router", .string), Argument("state", .string), Argument("network", .string), Argument("router_network", .string),
        Argument("detail", .string),
    ]

    public init(router: String, state: String, network: String, routerNetwork: String, detail: String) {
        self.router = router
        self.state = state
        self.network = network
        self.routerNetwork = routerNetwork
        self.detail = detail
    }

    public init(dbusValue: DBusValue) throws(DBusValueError) {
        var f = try StructReader(dbusValue, fieldCount: Self.fields.count)
        self.init(router: try f.next(), state: try f.next(), network: try f.next(), routerNetwork: try f.next(), detail: try f.next())
    }

    public var dbusValue: DBusValue {
        .structure([.string(router), .string(state), .string(network), .string(routerNetwork), .string(detail)])
    }
}
