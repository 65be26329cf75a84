public import DBus

/// A struct of the contract (a row of a listing), declared once by its fields: the daemon sends it with
/// ``DBus/DBusRepresentable/dbusValue`` and clients decode it with ``DBus/DBusRepresentable/init(dbusValue:)``.
public protocol ContractRow: DBusRepresentable, Equatable {
    /// The struct's fields, in wire order (their names document them).
    static var fields: [Argument] { get }
}

extension ContractRow {
    public static var dbusType: SignatureType { .structure(fields.map(\.type)) }
}

/// The arguments of a signal or of a method's reply, declared once.
public protocol ContractArguments: Sendable, Equatable {
    /// The arguments, in wire order.
    static var declaration: [Argument] { get }
    /// Decodes received arguments.
    /// - Throws: `DBusValueError` when their count or types differ from ``declaration``.
    init(arguments: [DBusValue]) throws(DBusValueError)
    /// The arguments to send.
    var arguments: [DBusValue] { get }
}

extension ContractArguments {
    /// A reader over `arguments` that checks their count against ``declaration``.
    static func reader(_ arguments: [DBusValue]) throws(DBusValueError) -> StructReader {
        try StructReader(.structure(arguments), fieldCount: declaration.count)
    }
}
