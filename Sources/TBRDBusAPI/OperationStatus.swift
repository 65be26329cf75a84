public import DBus
public import DeviceModel

extension OperationStatus {
    /// The status from its wire form.
    /// - Throws: `DBusValueError.invalid` naming the value when it is not one of the cases.
    public init(wire: String) throws(DBusValueError) {
        guard let status = OperationStatus(rawValue: wire) else {
            throw .invalid("unknown status \"\(wire)\" (known: \(Self.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        self = status
    }
}
