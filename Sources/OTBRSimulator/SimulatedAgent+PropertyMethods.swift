import DBus
import OpenThreadBR

/// Reading and writing the agent's properties: `GetProperties(as)` and `org.freedesktop.DBus.Properties`
/// as the agent implements them (its error names, its `GetAll` that always fails).
extension SimulatedAgent {
    func handleGetProperties(_ call: MethodCall) throws -> [DBusValue] {
        guard let a = MethodArguments.prefix(call, [.array(.string)]), case .array(_, let items) = a[0] else {
            throw OpenThreadError.parse.dbusError
        }
        var values: [DBusValue] = []
        for item in items {
            guard case .string(let name) = item else { throw OpenThreadError.parse.dbusError }
            do { values.append(.variant(try propertyValue(name))) } catch { throw error.dbusError }
        }
        return [.array(element: .variant, values)]
    }

    // MARK: org.freedesktop.DBus.Properties

    func handleGet(_ call: MethodCall) throws -> [DBusValue] {
        guard let a = MethodArguments.prefix(call, [.string, .string]), case .string(let interface) = a[0],
            case .string(let name) = a[1]
        else { throw OpenThreadError.parse.dbusError }
        guard interface == OTBRNames.interface.rawValue else { throw OpenThreadError.notFound.dbusError }
        do { return [.variant(try propertyValue(name))] } catch { throw error.dbusError }
    }

    func handleSet(_ call: MethodCall) async throws -> [DBusValue] {
        guard let a = MethodArguments.prefix(call, [.string, .string]), case .string(let interface) = a[0],
            case .string(let name) = a[1]
        else { throw OpenThreadError.parse.dbusError }
        guard interface == OTBRNames.interface.rawValue else { throw OpenThreadError.notFound.dbusError }
        let value: DBusValue? = call.arguments.count > 2 ? call.arguments[2] : nil
        guard case .variant(let inner)? = value else {
            // The setters read the value from a variant: anything else fails to extract.
            if PropertyTable.all.contains(where: { $0.name.rawValue == name && $0.writable }) {
                throw Self.invalidArgs()
            }
            throw OpenThreadError.notFound.dbusError
        }
        do { try await setProperty(name, inner) } catch { throw error.dbusError }
        return []
    }

    func handleGetAll(_ call: MethodCall) throws -> [DBusValue] {
        guard let a = MethodArguments.prefix(call, [.string]), case .string(let interface) = a[0] else {
            throw OpenThreadError.parse.dbusError
        }
        guard interface == OTBRNames.interface.rawValue else { throw OpenThreadError.notFound.dbusError }
        // Observed on a real agent: one getter (DnssdCounters) is not implemented and GetAll stops there.
        throw OpenThreadError.notImplemented.dbusError
    }
}
