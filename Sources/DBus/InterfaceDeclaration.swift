/// A named, typed argument of a method or signal, as introspection shows it.
public struct Argument: Sendable, Hashable {
    public var name: String
    public var type: SignatureType
    public init(_ name: String, _ type: SignatureType) {
        self.name = name
        self.type = type
    }
}

/// An introspection annotation (`<annotation name=… value=…/>`).
public struct Annotation: Sendable, Hashable {
    public var name: String
    public var value: String
    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

/// What a method handler receives.
public struct MethodCall: Sendable {
    /// The full message (sender, path, signature, …).
    public var message: Message
    /// The arguments.
    public var arguments: [DBusValue] { message.body }
    /// The caller's unique name.
    public var sender: String { message.sender ?? "" }

    /// Argument `index` as `T`; a missing or mistyped argument throws `InvalidArgs`.
    public func argument<T: DBusRepresentable>(_ index: Int, as _: T.Type = T.self) throws(DBusError) -> T {
        guard index < arguments.count else { throw DBusError(.invalidArgs, "missing argument \(index)") }
        do { return try T(dbusValue: arguments[index]) } catch { throw DBusError(.invalidArgs, "argument \(index): \(error)") }
    }
}

/// A method of an exported interface.
public struct Method: Sendable {
    public var name: MemberName
    public var inputs: [Argument]
    public var outputs: [Argument]
    public var annotations: [Annotation]
    /// When true (the default) a call whose signature differs from ``inputs`` is refused with the
    /// standard `InvalidArgs` before the handler runs. Services that answer bad arguments with errors of
    /// their own (otbr-agent does) set it to false and check in the handler.
    public var checksArguments: Bool
    /// Runs the method; returns the output arguments or throws (a ``DBusError`` is sent as is, anything
    /// else as `org.freedesktop.DBus.Error.Failed`).
    public var handler: @Sendable (MethodCall) async throws -> [DBusValue]

    public init(
        _ name: MemberName, inputs: [Argument] = [], outputs: [Argument] = [], annotations: [Annotation] = [],
        checksArguments: Bool = true, handler: @escaping @Sendable (MethodCall) async throws -> [DBusValue]
    ) {
        self.name = name
        self.inputs = inputs
        self.outputs = outputs
        self.annotations = annotations
        self.checksArguments = checksArguments
        self.handler = handler
    }
}

/// A property of an exported interface.
public struct Property: Sendable {
    /// Read, write or both.
    public enum Access: String, Sendable { case read, write, readwrite }
    /// What `org.freedesktop.DBus.Property.EmitsChangedSignal` says.
    public enum ChangeSignal: String, Sendable { case `true`, invalidates, const, `false` }

    public var name: MemberName
    public var type: SignatureType
    public var access: Access
    public var emitsChanged: ChangeSignal
    public var annotations: [Annotation]
    public var get: (@Sendable () async throws -> DBusValue)?
    public var set: (@Sendable (DBusValue, MethodCall) async throws -> Void)?

    public init(
        _ name: MemberName, type: SignatureType, emitsChanged: ChangeSignal = .true, annotations: [Annotation] = [],
        get: (@Sendable () async throws -> DBusValue)?, set: (@Sendable (DBusValue, MethodCall) async throws -> Void)? = nil
    ) {
        self.name = name
        self.type = type
        self.access = get != nil ? (set != nil ? .readwrite : .read) : .write
        self.emitsChanged = emitsChanged
        self.annotations = annotations
        self.get = get
        self.set = set
    }
}

/// A signal an exported interface may emit.
public struct SignalDeclaration: Sendable {
    public var name: MemberName
    public var arguments: [Argument]
    public var annotations: [Annotation]
    public init(_ name: MemberName, arguments: [Argument] = [], annotations: [Annotation] = []) {
        self.name = name
        self.arguments = arguments
        self.annotations = annotations
    }
}

/// One interface of an exported object: its methods, properties and signals. Introspection XML is
/// generated from this declaration.
public struct Interface: Sendable {
    public var name: InterfaceName
    public var methods: [Method]
    public var properties: [Property]
    public var signals: [SignalDeclaration]
    public var annotations: [Annotation]

    public init(
        _ name: InterfaceName, methods: [Method] = [], properties: [Property] = [], signals: [SignalDeclaration] = [],
        annotations: [Annotation] = []
    ) {
        self.name = name
        self.methods = methods
        self.properties = properties
        self.signals = signals
        self.annotations = annotations
    }

    func method(_ name: MemberName) -> Method? { methods.first { $0.name == name } }
    func property(_ name: String) -> Property? { properties.first { $0.name.rawValue == name } }
}

/// The interfaces exported at one path.
struct ExportedObject {
    var interfaces: [InterfaceName: Interface]
    var order: [InterfaceName]
}
