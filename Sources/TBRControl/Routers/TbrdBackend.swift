import TBRDBusAPI
import DBus

/// The device commands over tbrd's D-Bus API (docs/dbus-api.md): `io.tbrd.Manager1` at `/io/tbrd` and
/// `io.tbrd.BorderRouter1` at `/io/tbrd/router/<id>`. Errors become exit statuses in ``ErrorMapping``.
struct TbrdBackend: RouterBackend {
    /// The connection to tbrd's bus.
    let connection: Connection

    /// How long calls that wait for the network wait (`JoinNetwork`, `LeaveNetwork`).
    static let networkTimeout: Duration = .seconds(180)

    /// `io.tbrd.Manager1`.
    var manager: RemoteObject {
        RemoteObject(
            connection: connection, destination: TBRDBusAPI.busName, path: TBRDBusAPI.managerPath,
            interface: TBRDBusAPI.manager)
    }

    /// `io.tbrd.BorderRouter1` of `router`.
    func object(_ router: RouterRef) throws -> RemoteObject {
        guard let text = router.path, let path = try? ObjectPath(text) else {
            throw ControlError.failure("tbrd gave no object path for border router \(router.id)")
        }
        return RemoteObject(connection: connection, destination: TBRDBusAPI.busName, path: path, interface: TBRDBusAPI.borderRouter)
    }

    /// Calls `member` of `object`, mapping failures through ``ErrorMapping``.
    func call(
        _ object: RemoteObject, _ member: MemberName, _ arguments: [DBusValue] = [], doing: String,
        timeout: Duration = Connection.defaultTimeout
    ) async throws -> [DBusValue] {
        do { return try await object.call(member, arguments, timeout: timeout) } catch {
            throw ErrorMapping.controlError(error, doing: doing)
        }
    }

    // MARK: routers

    /// `ListBorderRouters() → a(ossbsssb)`: every router with its object path.
    func routerEntries() async throws -> [(path: ObjectPath, listing: RouterListing)] {
        let reply = try await call(manager, "ListBorderRouters", doing: "listing tbrd's border routers")
        do {
            guard case .array(_, let items)? = reply.first else {
                throw DBusValueError.invalid("ListBorderRouters did not return an array")
            }
            return try items.map { (item) throws(DBusValueError) in
                var f = try StructReader(item, fieldCount: 8)
                let path: ObjectPath = try f.next()
                let id: String = try f.next()
                let interface: String = try f.next()
                let online: Bool = try f.next()
                let role: String = try f.next()
                let name: String = try f.next()
                let xpanid: String = try f.next()
                let epskc: Bool = try f.next()
                return (
                    path,
                    RouterListing(
                        id: id, interface: interface, online: online, role: role.nilIfEmpty, networkName: name.nilIfEmpty,
                        extPanId: xpanid.nilIfEmpty, epskcSupported: epskc)
                )
            }.sorted { $0.listing.id < $1.listing.id }
        } catch {
            throw ErrorMapping.controlError(error, doing: "listing tbrd's border routers")
        }
    }

    func routers() async throws -> [RouterListing] { try await routerEntries().map(\.listing) }

    func resolve(_ text: String?) async throws -> RouterRef {
        guard let text else {
            let entries = try await routerEntries()
            let id = try RouterChoice.only(
                of: entries.map(\.listing.id),
                nobody: "tbrd knows no border router yet: is otbr-agent running on its bus?")
            return RouterRef(id: id, path: entries.first { $0.listing.id == id }?.path.rawValue)
        }
        let reply: [DBusValue]
        do {
            reply = try await manager.call("FindBorderRouter", [.string(text)])
        } catch let error as DBusError where error.name == TBRDBusAPI.Error.notFound {
            throw RouterChoice.unknown(text, known: try await routerEntries().map(\.listing.id))
        } catch {
            throw ErrorMapping.controlError(error, doing: "finding border router '\(text)'")
        }
        guard case .objectPath(let path)? = reply.first else {
            throw ControlError.failure("FindBorderRouter did not return an object path")
        }
        // tbrd names router objects after their ids: when the path is the one `text` itself would give,
        // `text` is the id, and reading the `Id` property can be skipped.
        if path == TBRDBusAPI.routerNamespace.appending(text) { return RouterRef(id: text, path: path.rawValue) }
        let found = RouterRef(id: text, path: path.rawValue)
        let id: String
        do { id = try await object(found).property("Id", as: String.self) } catch {
            throw ErrorMapping.controlError(error, doing: "reading the id of border router '\(text)'")
        }
        return RouterRef(id: id, path: path.rawValue)
    }

    func info(of router: RouterRef) async throws -> RouterInfo {
        let p: [String: DBusValue]
        do { p = try await object(router).allProperties() } catch {
            throw ErrorMapping.controlError(error, doing: "reading the properties of border router \(router.id)")
        }
        func string(_ key: String) -> String { (try? p[key]?.decode(as: String.self)) ?? "" }
        func number(_ key: String) -> UInt16? { try? p[key]?.decode(as: UInt16.self) }
        func flag(_ key: String) -> Bool { (try? p[key]?.decode(as: Bool.self)) ?? false }
        let hasNetwork = !string("NetworkName").isEmpty || !string("ExtPanId").isEmpty
        return RouterInfo(
            id: string("Id").nilIfEmpty ?? router.id,
            basicInformation: .init(
                vendorName: string("VendorName"), vendorId: number("VendorId").flatMap { $0 == 0 ? nil : $0 },
                productId: number("ProductId").flatMap { $0 == 0 ? nil : $0 }, productName: string("ProductName"),
                softwareVersion: string("SoftwareVersion")),
            capabilities: .init(
                epskcSupported: flag("EpskcSupported"),
                internetAccessOption: string("InternetAccessCapability").nilIfEmpty ?? "unspecified"),
            network: .init(
                role: string("Role").nilIfEmpty, networkName: hasNetwork ? string("NetworkName").nilIfEmpty : nil,
                panId: hasNetwork ? number("PanId") : nil, extPanId: hasNetwork ? string("ExtPanId").nilIfEmpty : nil,
                channel: hasNetwork ? number("Channel") : nil),
            interface: string("Interface").nilIfEmpty ?? router.id, online: flag("Online"))
    }

    // MARK: commands

    func activateEpskc(on router: RouterRef, seconds: Int?) async throws -> EpskcActivation {
        let reply = try await call(
            try object(router), "ActivateEpskcMode", [.uint16(UInt16(clamping: seconds ?? 0))],
            doing: "ActivateEpskcMode on \(router.id)")
        guard reply.count == 3, case .string(let status) = reply[0], case .string(let key) = reply[1],
            case .uint16(let valid) = reply[2]
        else {
            throw ControlError.failure("ActivateEpskcMode on \(router.id) failed: tbrd's reply is not (s, s, q)")
        }
        return EpskcActivation(
            status: status, epskc: status == "success" ? key : nil, validDurationSeconds: Int(valid),
            message: status == "success" ? nil : EpskcActivation.sentence(for: status, router: router.id))
    }

    func deactivateEpskc(on router: RouterRef, retainSession: Bool) async throws {
        _ = try await call(
            try object(router), "DeactivateEpskcMode", [.bool(retainSession)], doing: "DeactivateEpskcMode on \(router.id)")
    }

    func joinNetwork(on router: RouterRef, tlvs: [UInt8], thisRouterOnly: Bool) async throws -> JoinResult {
        let options = DBusValue.dictionary(
            key: .string, value: .variant,
            thisRouterOnly ? [.init(key: .string("thisRouterOnly"), value: .variant(.bool(true)))] : [])
        let reply = try await call(
            try object(router), "JoinNetwork", [.bytes(tlvs), options], doing: "JoinNetwork on \(router.id)",
            timeout: Self.networkTimeout)
        guard reply.count == 3, case .string(let status) = reply[0], case .int64(let delay) = reply[1],
            case .string(let why) = reply[2]
        else {
            throw ControlError.failure("JoinNetwork on \(router.id) failed: tbrd's reply is not (s, x, s)")
        }
        return JoinResult(
            status: status, migrationDelaySeconds: Int(delay / 1000),
            message: status == "success" ? nil : (why.isEmpty ? JoinResult.sentence(for: status, router: router.id) : why))
    }

    func leaveNetwork(on router: RouterRef) async throws {
        _ = try await call(
            try object(router), "LeaveNetwork", doing: "LeaveNetwork on \(router.id)", timeout: Self.networkTimeout)
    }

    func dataset(of router: RouterRef, pending: Bool) async throws -> [UInt8]? {
        let member: MemberName = pending ? "GetPendingDataset" : "GetActiveDataset"
        let target = try object(router)
        let reply: [DBusValue]
        do {
            reply = try await target.call(member)
        } catch let error as DBusError where error.name == TBRDBusAPI.Error.notFound {
            return nil
        } catch {
            throw ErrorMapping.controlError(error, doing: "\(member) on \(router.id)")
        }
        guard case .bytes(let tlvs)? = reply.first else {
            throw ControlError.failure("\(member) on \(router.id) failed: tbrd's reply is not ay")
        }
        return tlvs.isEmpty ? nil : tlvs
    }
}

extension String {
    /// nil for the empty string (tbrd's "none").
    var nilIfEmpty: String? { isEmpty ? nil : self }
}

extension EpskcActivation {
    /// A sentence for a non-success `status` of `ActivateEpskcMode` on `router`.
    static func sentence(for status: String, router: String) -> String {
        switch status {
        case "busy": "an ePSKc is already active on \(router); wait for it to end or end it with 'tbrctl epskc deactivate'"
        case "notSupported": "\(router) does not support ePSKc (built without it, or the feature is off)"
        case "invalidState": "\(router) cannot start an ePSKc in its current state"
        case "invalidArgument": "\(router) refused the ePSKc request as invalid"
        default: "\(router) could not start an ePSKc (status \(status))"
        }
    }
}

extension JoinResult {
    /// A sentence for a non-success `status` of `JoinNetwork` on `router`.
    static func sentence(for status: String, router: String) -> String {
        switch status {
        case "busy": "\(router) is busy with another network operation; try again later"
        case "notSupported": "\(router) cannot join networks"
        case "invalidState": "\(router) cannot join a network in its current state"
        case "invalidArgument": "\(router) refused the dataset as invalid"
        default: "\(router) could not join the network (status \(status))"
        }
    }
}
