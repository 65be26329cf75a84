public import DBus

/// The names of tbrd's D-Bus API as docs/dbus-api.md fixes them: the one place the daemon (which
/// serves them) and tbrctl (which calls them) take them from.
public enum TBRDBusAPI {
    /// tbrd's well-known bus name.
    public static let busName: BusName = "io.tbrd"
    /// The manager object.
    public static let managerPath: ObjectPath = "/io/tbrd"
    /// Every router object lies below this path (`/io/tbrd/router/<id>`).
    public static let routerNamespace: ObjectPath = "/io/tbrd/router"
    /// The manager interface at ``managerPath``.
    public static let manager: InterfaceName = "io.tbrd.Manager1"
    /// The interface of each router object.
    public static let borderRouter: InterfaceName = "io.tbrd.BorderRouter1"
    /// The interface of each structure object.
    public static let structure: InterfaceName = "io.tbrd.Structure1"
    /// The prefix of tbrd's own error names (`io.tbrd.Error.NotFound`, …).
    public static let errorPrefix = "io.tbrd.Error."

    /// The signal of a started ePSKc session: `(t sequence, s router, q validSeconds, x activatedAt)`.
    public static let epskcActivated: MemberName = "EpskcModeActivated"
    /// The signal of an ended ePSKc session:
    /// `(t sequence, s router, s reason, s detail, x activatedAt, x deactivatedAt)`.
    public static let epskcDeactivated: MemberName = "EpskcModeDeactivated"

    /// Every structure object lies below this path (`/io/tbrd/structure/<id>`).
    public static let structureNamespace: ObjectPath = "/io/tbrd/structure"

    /// tbrd's error names (`io.tbrd.Error.*`), each sent with a human sentence.
    public enum Error {
        public static let notFound: ErrorName = "io.tbrd.Error.NotFound"
        public static let invalidArgument: ErrorName = "io.tbrd.Error.InvalidArgument"
        public static let busy: ErrorName = "io.tbrd.Error.Busy"
        public static let notSupported: ErrorName = "io.tbrd.Error.NotSupported"
        public static let unavailable: ErrorName = "io.tbrd.Error.Unavailable"
        public static let permissionDenied: ErrorName = "io.tbrd.Error.PermissionDenied"
        public static let failed: ErrorName = "io.tbrd.Error.Failed"
    }
}
