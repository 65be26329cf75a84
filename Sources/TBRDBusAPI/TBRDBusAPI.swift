public import DBus

/// tbrd's D-Bus API as docs/dbus-api.md fixes it: names, signatures, row layouts and which properties
/// signal their changes. The daemon builds its exported interfaces from these declarations and tbrctl
/// decodes replies with the same types, so the contract is spelled once.
public enum TBRDBusAPI {
    /// tbrd's well-known bus name.
    public static let busName: BusName = "io.tbrd"
    /// The manager object.
    public static let managerPath: ObjectPath = "/io/tbrd"
    /// Every router object lies below this path (`/io/tbrd/router/<id>`).
    public static let routerNamespace: ObjectPath = "/io/tbrd/router"
    /// Every structure object lies below this path (`/io/tbrd/structure/<id>`).
    public static let structureNamespace: ObjectPath = "/io/tbrd/structure"
    /// The prefix of tbrd's own error names (`io.tbrd.Error.NotFound`, …).
    public static let errorPrefix = "io.tbrd.Error."

    /// The object of the router whose tbrd id is `id` (escaped as one path element).
    public static func routerPath(_ id: String) -> ObjectPath { routerNamespace.appending(id) }

    /// The object of the structure whose store id is `id`.
    public static func structurePath(_ id: String) -> ObjectPath { structureNamespace.appending(id) }

    /// tbrd's error names (`io.tbrd.Error.*`), each sent with a human sentence.
    public enum Error {
        public static let notFound: ErrorName = "io.tbrd.Error.NotFound"
        public static let invalidArgument: ErrorName = "io.tbrd.Error.InvalidArgument"
        public static let busy: ErrorName = "io.tbrd.Error.Busy"
        public static let notSupported: ErrorName = "io.tbrd.Error.NotSupported"
        public static let unavailable: ErrorName = "io.tbrd.Error.Unavailable"
        public static let permissionDenied: ErrorName = "io.tbrd.Error.PermissionDenied"
        public static let failed: ErrorName = "io.tbrd.Error.Failed"
        /// The request names no single thing: several match (tbrctl exits 64, listing them).
        public static let ambiguous: ErrorName = "io.tbrd.Error.Ambiguous"
    }
}

/// One method of the contract: its name and its typed input and output arguments.
public struct MethodContract: Sendable {
    /// The member name.
    public let name: MemberName
    /// The input arguments, in order.
    public let inputs: [Argument]
    /// The output arguments, in order.
    public let outputs: [Argument]

    init(_ name: MemberName, inputs: [Argument] = [], outputs: [Argument] = []) {
        self.name = name
        self.inputs = inputs
        self.outputs = outputs
    }
}

/// One signal of the contract: its name and its typed arguments.
public struct SignalContract: Sendable {
    /// The member name.
    public let name: MemberName
    /// The arguments, in order.
    public let arguments: [Argument]

    init(_ name: MemberName, arguments: [Argument]) {
        self.name = name
        self.arguments = arguments
    }

    /// The introspection declaration of this signal.
    public var declaration: SignalDeclaration { SignalDeclaration(name, arguments: arguments) }
}

/// A property of the contract: its name, type, and whether changes are signalled (introspection's
/// `org.freedesktop.DBus.Property.EmitsChangedSignal`, which must say what the daemon really does).
public protocol PropertyContract: CaseIterable, Sendable, Hashable, RawRepresentable where RawValue == String {
    /// The property's D-Bus type.
    var type: SignatureType { get }
    /// Whether tbrd emits `PropertiesChanged` when it changes.
    var emitsChanged: Property.ChangeSignal { get }
}

extension PropertyContract {
    /// The member name (the raw values are literals of the contract, so this cannot fail).
    public var name: MemberName { MemberName(stringLiteral: rawValue) }
}
