import DBus

/// The names of tbrd's D-Bus API as docs/dbus-api.md fixes them: the contract this client is written
/// against.
enum TbrdNames {
    /// tbrd's well-known bus name.
    static let busName: BusName = "io.tbrd"
    /// The manager object.
    static let managerPath: ObjectPath = "/io/tbrd"
    /// Every router object lies below this path (`/io/tbrd/router/<id>`).
    static let routerNamespace: ObjectPath = "/io/tbrd/router"
    /// The manager interface at ``managerPath``.
    static let manager: InterfaceName = "io.tbrd.Manager1"
    /// The interface of each router object.
    static let borderRouter: InterfaceName = "io.tbrd.BorderRouter1"
    /// The interface of each structure object.
    static let structure: InterfaceName = "io.tbrd.Structure1"
    /// The prefix of tbrd's own error names (`io.tbrd.Error.NotFound`, …).
    static let errorPrefix = "io.tbrd.Error."

    /// The signal of a started ePSKc session: `(t sequence, s router, q validSeconds, x activatedAt)`.
    static let epskcActivated: MemberName = "EpskcModeActivated"
    /// The signal of an ended ePSKc session:
    /// `(t sequence, s router, s reason, s detail, x activatedAt, x deactivatedAt)`.
    static let epskcDeactivated: MemberName = "EpskcModeDeactivated"
}
