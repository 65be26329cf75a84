import TBRDBusAPI
import DBus

// How tbrd's routers are named and found, shared by ``TbrdBackend`` and ``BlockingTbrd``.
extension TbrdBackend {
    /// Where tbrd serves `router`.
    /// - Throws: ``ControlError`` 1 when the router has no valid object path.
    static func objectPath(of router: RouterRef) throws(ControlError) -> ObjectPath {
        guard let text = router.path, let path = try? ObjectPath(text) else {
            throw .failure("tbrd gave no object path for border router \(router.id)")
        }
        return path
    }

    /// What `ListBorderRouters` is, for messages.
    static let listingRouters = "listing tbrd's border routers"

    /// The rows of a `ListBorderRouters` reply.
    /// - Throws: ``ControlError`` 1 when the reply is not `a(ossbsssb)`.
    static func routerRows(_ reply: [DBusValue]) throws(ControlError) -> [BorderRouterRow] {
        do { return try decode(reply, as: [BorderRouterRow].self) } catch {
            throw ErrorMapping.controlError(error, doing: listingRouters)
        }
    }

    /// The only router of `routers`, as a command without `-d` takes it.
    /// - Throws: ``ControlError`` 69 when tbrd knows none, ``UsageError`` naming them (sorted by id) when
    ///   it knows several.
    static func onlyRouter(of routers: [(id: String, path: ObjectPath)]) throws -> RouterRef {
        let sorted = routers.sorted { $0.id < $1.id }
        let id = try RouterChoice.only(
            of: sorted.map(\.id), nobody: "tbrd knows no border router yet: is otbr-agent running on its bus?")
        return RouterRef(id: id, path: sorted.first { $0.id == id }?.path.rawValue)
    }

    /// The router `-d text` names, taken as a router id until the first call shows otherwise
    /// (``onRouter(_:_:)``): no round trip to resolve it.
    static func namedRouter(_ text: String) -> RouterRef {
        RouterRef(id: text, path: TBRDBusAPI.routerPath(text).rawValue, isVerified: false)
    }
}
