import BorderRouterService
import TBRDocuments
import TBRDBusAPI
import DBus
import TBRFoundation

/// The device commands over tbrd's D-Bus API (docs/dbus-api.md): `io.tbrd.Manager1` at `/io/tbrd` and
/// `io.tbrd.BorderRouter1` at `/io/tbrd/router/<id>`. Errors become exit statuses in ``ErrorMapping``.
struct TbrdBackend: RouterBackend {
    typealias API = TBRDBusAPI.BorderRouter
    typealias Property = TBRDBusAPI.BorderRouter.Property

    /// The connection to tbrd's bus.
    let connection: Connection
    /// Whether tbrd has answered on this connection yet (see ``send(_:_:_:timeout:)``).
    let presence = TbrdPresence()

    /// How long calls that wait for the network wait (`JoinNetwork`, `LeaveNetwork`).
    static let networkTimeout: Duration = .seconds(180)

    /// `io.tbrd.Manager1`.
    var manager: RemoteObject {
        RemoteObject(
            connection: connection, destination: TBRDBusAPI.busName, path: TBRDBusAPI.managerPath,
            interface: TBRDBusAPI.Manager.interface)
    }

    /// `io.tbrd.BorderRouter1` at `path`.
    func routerObject(_ path: ObjectPath) -> RemoteObject {
        RemoteObject(connection: connection, destination: TBRDBusAPI.busName, path: path, interface: TBRDBusAPI.BorderRouter.interface)
    }

    /// `io.tbrd.BorderRouter1` of `router`.
    func object(_ router: RouterRef) throws -> RemoteObject {
        RemoteObject(
            connection: connection, destination: TBRDBusAPI.busName, path: try Self.objectPath(of: router),
            interface: TBRDBusAPI.BorderRouter.interface)
    }

    /// Calls `member` of `object`, mapping failures through ``ErrorMapping``.
    func call(
        _ object: RemoteObject, _ member: MemberName, _ arguments: [DBusValue] = [], doing: String,
        timeout: Duration = Connection.defaultTimeout
    ) async throws -> [DBusValue] {
        do { return try await send(object, member, arguments, timeout: timeout) } catch {
            throw Self.mapped(error, doing: doing)
        }
    }

    /// Calls `member` of `object` without asking first whether tbrd runs: the bus's `ServiceUnknown` to
    /// the first call on this connection means it does not (``TbrdNotRunning``, so the command can go to
    /// otbr-agent directly), which saves a `GetNameOwner` round trip on every command.
    /// - Throws: ``TbrdNotRunning``, or the call's own error unmapped.
    func send(
        _ object: RemoteObject, _ member: MemberName, _ arguments: [DBusValue] = [],
        timeout: Duration = Connection.defaultTimeout
    ) async throws -> [DBusValue] {
        do {
            let reply = try await object.call(member, arguments, timeout: timeout)
            presence.confirm()
            return reply
        } catch let error as DBusError where error.name == .serviceUnknown || error.name == .nameHasNoOwner {
            if !presence.isConfirmed { throw TbrdNotRunning() }
            throw error
        }
    }

    /// Reads every property of `object`, as ``send(_:_:_:timeout:)`` calls.
    func sendGetAll(_ object: RemoteObject) async throws -> [String: DBusValue] {
        let reply = try await send(
            RemoteObject(connection: connection, destination: object.destination, path: object.path, interface: .properties),
            "GetAll", [.string(object.interface.rawValue)])
        guard let first = reply.first else { return [:] }
        return try [String: DBusValue](dbusValue: first)
    }

    /// Calls `member` on the object of `router` (see ``onRouter(_:_:)``), mapping failures through
    /// ``ErrorMapping``.
    func callRouter(
        _ router: RouterRef, _ member: MemberName, _ arguments: [DBusValue] = [], doing: String,
        timeout: Duration = Connection.defaultTimeout
    ) async throws -> [DBusValue] {
        do { return try await onRouter(router) { try await send($0, member, arguments, timeout: timeout) } } catch {
            throw Self.mapped(error, doing: doing)
        }
    }

    /// `error` as tbrctl reports it; ``TbrdNotRunning`` passes through.
    static func mapped(_ error: any Error, doing: String) -> any Error {
        error is TbrdNotRunning ? error : ErrorMapping.controlError(error, doing: doing)
    }

    /// Runs `body` on the object of `router`. A router named on the command line is first tried at the
    /// path its name gives (tbrd names router objects after their ids), with no lookup; only when no
    /// such object exists is it looked up with `FindBorderRouter` (an interface name or a Border Agent
    /// ID) and `body` run again there. `body`'s errors come back unmapped.
    func onRouter<T: Sendable>(_ router: RouterRef, _ body: (RemoteObject) async throws -> T) async throws -> T {
        do {
            return try await body(try object(router))
        } catch let error as DBusError where !router.isVerified && (error.name == .unknownObject || error.name == .unknownMethod) {
            return try await body(try object(try await lookUp(router.id)))
        }
    }

    // MARK: routers

    /// `ListBorderRouters() → a(ossbsssb)`: every router with its object path.
    func routerEntries() async throws -> [(path: ObjectPath, listing: RouterListing)] {
        let contract = TBRDBusAPI.Manager.listBorderRouters
        let rows = try Self.routerRows(try await call(manager, contract.name, doing: Self.listingRouters))
        var entries: [(path: ObjectPath, listing: RouterListing)] = []
        for row in rows {
            // The row has no transport (its signature is a contract): a router without an interface is
            // on another host, and only its object says where.
            var transport = "dbus", address = row.interface.isEmpty ? "" : "io.openthread.BorderRouter." + row.interface
            if row.interface.isEmpty, let values = try? await sendGetAll(routerObject(row.path)) {
                if case .string(let t)? = values[TBRDBusAPI.BorderRouter.Property.transport.rawValue] { transport = t }
                if case .string(let a)? = values[TBRDBusAPI.BorderRouter.Property.address.rawValue] { address = a }
            }
            entries.append((
                row.path,
                RouterListing(
                    id: row.id, interface: row.interface, transport: transport, address: address, online: row.online,
                    role: row.role.nilIfEmpty, networkName: row.networkName.nilIfEmpty, extPanId: row.extPanId.nilIfEmpty,
                    epskcSupported: row.epskcSupported)
            ))
        }
        return entries.sorted { $0.listing.id < $1.listing.id }
    }

    /// The single value of a reply, as `T`.
    static func decode<T: DBusRepresentable>(_ reply: [DBusValue], as _: T.Type) throws(DBusValueError) -> T {
        guard reply.count == 1 else { throw .invalid("expected one value of type \(T.dbusType.text), found \(reply.count)") }
        return try T(dbusValue: reply[0])
    }

    func routers() async throws -> [RouterListing] { try await routerEntries().map(\.listing) }

    func resolve(_ text: String?) async throws -> RouterRef {
        guard let text else { return try Self.onlyRouter(of: try await routerEntries().map { ($0.listing.id, $0.path) }) }
        return Self.namedRouter(text)
    }

    /// The router `text` names, looked up in tbrd: `FindBorderRouter`, and its `Id` when the path is not
    /// the one `text` itself gives.
    /// - Throws: ``ControlError`` 1 naming the known routers when nothing matches.
    func lookUp(_ text: String) async throws -> RouterRef {
        let reply: [DBusValue]
        do {
            reply = try await send(manager, TBRDBusAPI.Manager.findBorderRouter.name, [.string(text)])
        } catch let error as DBusError where error.name == TBRDBusAPI.Error.notFound {
            throw RouterChoice.unknown(text, known: try await routerEntries().map(\.listing.id))
        } catch {
            throw Self.mapped(error, doing: "finding border router \(Quoted(text))")
        }
        guard case .objectPath(let path)? = reply.first else {
            throw ControlError.failure("FindBorderRouter did not return an object path")
        }
        if path == TBRDBusAPI.routerPath(text) { return RouterRef(id: text, path: path.rawValue) }
        let found = RouterRef(id: text, path: path.rawValue)
        let id: String
        do { id = try await object(found).property(Property.id.rawValue, as: String.self) } catch {
            throw ErrorMapping.controlError(error, doing: "reading the id of border router \(Quoted(text))")
        }
        return RouterRef(id: id, path: path.rawValue)
    }

    func info(of router: RouterRef) async throws -> RouterInfo {
        let p: [String: DBusValue]
        do { p = try await onRouter(router) { try await sendGetAll($0) } } catch {
            throw Self.mapped(error, doing: "reading the properties of border router \(router.id)")
        }
        func string(_ key: Property) -> String { (try? p[key.rawValue]?.decode(as: String.self)) ?? "" }
        func number(_ key: Property) -> UInt16? { try? p[key.rawValue]?.decode(as: UInt16.self) }
        func flag(_ key: Property) -> Bool { (try? p[key.rawValue]?.decode(as: Bool.self)) ?? false }
        let hasNetwork = !string(.networkName).isEmpty || !string(.extPanId).isEmpty
        return RouterInfo(
            id: string(.id).nilIfEmpty ?? router.id, transport: string(.transport).nilIfEmpty ?? "dbus", address: string(.address),
            borderAgentId: string(.borderAgentId).nilIfEmpty,
            basicInformation: .init(
                vendorName: string(.vendorName), vendorId: number(.vendorId).flatMap { $0 == 0 ? nil : $0 },
                productId: number(.productId).flatMap { $0 == 0 ? nil : $0 }, productName: string(.productName),
                softwareVersion: string(.softwareVersion)),
            capabilities: .init(
                epskcSupported: flag(.epskcSupported),
                internetAccessOption: string(.internetAccessCapability).nilIfEmpty ?? "unspecified"),
            network: .init(
                role: string(.role).nilIfEmpty, networkName: hasNetwork ? string(.networkName).nilIfEmpty : nil,
                panId: hasNetwork ? number(.panId) : nil, extPanId: hasNetwork ? string(.extPanId).nilIfEmpty : nil,
                channel: hasNetwork ? number(.channel) : nil),
            interface: string(.interface), online: flag(.online))
    }

    // MARK: commands

    /// Makes `call` on `router` (``callRouter(_:_:_:doing:timeout:)``) and reads its reply.
    func perform<R>(_ call: RouterCall<R>, on router: RouterRef) async throws -> R {
        try call.decode(try await callRouter(router, call.member, call.arguments, doing: call.doing(router)), router.id)
    }

    func activateEpskc(on router: RouterRef, seconds: Int?) async throws -> EpskcActivation {
        try await perform(.activateEpskc(seconds: seconds), on: router)
    }

    func deactivateEpskc(on router: RouterRef, retainSession: Bool) async throws {
        try await perform(.deactivateEpskc(retainSession: retainSession), on: router)
    }

    func joinNetwork(on router: RouterRef, tlvs: [UInt8], thisRouterOnly: Bool) async throws -> JoinResult {
        let options = DBusValue.dictionary(
            key: .string, value: .variant,
            thisRouterOnly ? [.init(key: .string(API.thisRouterOnlyOption), value: .variant(.bool(true)))] : [])
        let reply = try await callRouter(
            router, API.joinNetwork.name, [.bytes(tlvs), options], doing: "JoinNetwork on \(router.id)",
            timeout: Self.networkTimeout)
        let r: JoinNetworkReply
        do { r = try JoinNetworkReply(arguments: reply) } catch {
            throw ControlError.failure("JoinNetwork on \(router.id) failed: tbrd's reply is not (s, x, s): \(error)")
        }
        return JoinResult(
            status: r.status, migrationDelaySeconds: Int(r.delayMs / 1000),
            message: r.status == .success ? nil : (r.message.isEmpty ? JoinResult.sentence(for: r.status, router: router.id) : r.message))
    }

    func leaveNetwork(on router: RouterRef) async throws {
        _ = try await callRouter(
            router, API.leaveNetwork.name, doing: "LeaveNetwork on \(router.id)", timeout: Self.networkTimeout)
    }

    func energyScan(on router: RouterRef, duration: Duration) async throws -> [EnergyReading] {
        let member = API.energyScan.name
        let ms = duration.wholeMilliseconds ?? .max
        let reply: [DBusValue]
        do {
            reply = try await onRouter(router) { try await send($0, member, [.uint32(ms)], timeout: Self.networkTimeout) }
        } catch let error as DBusError where error.name == TBRDBusAPI.Error.notSupported {
            throw EnergyScanUnsupported(router: router.id, reason: error.message)
        } catch {
            throw Self.mapped(error, doing: "\(member) on \(router.id)")
        }
        guard case .array(_, let items)? = reply.first else {
            throw ControlError.failure("\(member) on \(router.id) failed: tbrd's reply is not an array of readings")
        }
        return try items.map { item in
            guard case .structure(let f) = item, f.count == 2, case .byte(let channel) = f[0], case .int16(let rssi) = f[1] else {
                throw ControlError.failure("\(member) on \(router.id) failed: tbrd's reply does not decode")
            }
            return EnergyReading(channel: Int(channel), maxRssi: Int(rssi))
        }
    }

    func dataset(of router: RouterRef, pending: Bool) async throws -> [UInt8]? {
        let member = (pending ? API.getPendingDataset : API.getActiveDataset).name
        let reply: [DBusValue]
        do {
            reply = try await onRouter(router) { try await send($0, member) }
        } catch let error as DBusError where error.name == TBRDBusAPI.Error.notFound {
            return nil
        } catch {
            throw Self.mapped(error, doing: "\(member) on \(router.id)")
        }
        guard case .bytes(let tlvs)? = reply.first else {
            throw ControlError.failure("\(member) on \(router.id) failed: tbrd's reply is not ay")
        }
        return tlvs.isEmpty ? nil : tlvs
    }
}

extension JoinResult {
    /// A sentence for a non-success `status` of `JoinNetwork` on `router`.
    static func sentence(for status: OperationStatus, router: String) -> String {
        switch status {
        case .busy: "\(router) is busy with another network operation; try again later"
        case .notSupported: "\(router) cannot join networks"
        case .invalidState: "\(router) cannot join a network in its current state"
        case .invalidArgument: "\(router) refused the dataset as invalid"
        case .success, .failed: "\(router) could not join the network (status \(status.rawValue))"
        }
    }
}
