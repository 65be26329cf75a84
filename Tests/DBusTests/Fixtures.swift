import DBus
import TBRTestKit

/// A server connection exporting a test object, and a client connection on the same private bus.
struct Pair {
    let bus: PrivateBus
    let server: Connection
    let client: Connection
    static let name: BusName = "io.tbrd.Test"
    static let path: ObjectPath = "/io/tbrd/Test"
    static let interface: InterfaceName = "io.tbrd.Test1"

    var remote: RemoteObject {
        RemoteObject(connection: client, destination: Pair.name, path: Pair.path, interface: Pair.interface)
    }
}

/// A store for one property that tests read and write.
actor Box<T: Sendable> {
    var value: T
    init(_ v: T) { value = v }
    func set(_ v: T) { value = v }
}

/// Runs `body` with a private bus, a server exporting `interfaces` under `Pair.name`, and a client.
func withPair<R>(_ interfaces: [Interface], _ body: (Pair) async throws -> R) async throws -> R {
    try await withPrivateBus { bus in
        let server = try await Connection(bus: .address(bus.address))
        let client = try await Connection(bus: .address(bus.address))
        await server.export(interfaces, at: Pair.path)
        let reply = try await server.requestName(Pair.name)
        guard reply == .primaryOwner else { throw TestKitError("could not own \(Pair.name): \(reply)") }
        do {
            let r = try await body(Pair(bus: bus, server: server, client: client))
            await client.close()
            await server.close()
            return r
        } catch {
            await client.close()
            await server.close()
            throw error
        }
    }
}

/// An interface whose `Echo` returns its arguments unchanged, whatever their types.
func echoInterface() -> Interface {
    Interface(Pair.interface, methods: [
        Method("Echo", checksArguments: false) { call in call.arguments },
    ])
}
