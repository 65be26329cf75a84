import TBRDBusAPI
import DBus

/// tbrd's router calls over a ``BlockingConnection``, for the commands that finish before anything
/// async starts (``BlockingControlCommand``): the calls ``TbrdBackend`` makes for a router, in the same
/// order and with the same errors, on the calling thread.
///
/// It gives up, having done nothing, wherever the async path would do something other than those calls:
/// the bus cannot be reached (``RouterSession`` says so in its own words), tbrd is not on the bus (the
/// command goes to otbr-agent directly), or tbrd has no object at the path a `-d` name gives (the name
/// is an interface name or a Border Agent ID, which ``TbrdBackend`` looks up).
enum BlockingTbrd {
    /// Makes `call` on the router `text` names (nil: tbrd's only router), blocking.
    /// - Returns: the router and the call's result; nil when the async path must run the command (see
    ///   above), before anything was done.
    /// - Throws: ``ControlError`` (through ``ErrorMapping``) or ``UsageError`` exactly as
    ///   ``TbrdBackend/resolve(_:)`` and ``TbrdBackend/perform(_:on:)`` throw them.
    static func perform<R>(_ call: RouterCall<R>, on text: String?, _ context: CommandContext) throws -> (router: RouterRef, result: R)? {
        guard let connection = try? BlockingConnection(bus: context.bus) else { return nil }
        defer { connection.close() }
        // Until tbrd has answered, ServiceUnknown means it is not running, not that it left (TbrdPresence).
        var tbrdAnswered = false
        let router: RouterRef
        if let text {
            router = TbrdBackend.namedRouter(text)
        } else {
            let reply: [DBusValue]
            do {
                reply = try connection.call(
                    destination: TBRDBusAPI.busName, path: TBRDBusAPI.managerPath, interface: TBRDBusAPI.Manager.interface,
                    member: TBRDBusAPI.Manager.listBorderRouters.name)
            } catch where isNotRunning(error) {
                return nil
            } catch {
                throw ErrorMapping.controlError(error, doing: TbrdBackend.listingRouters)
            }
            tbrdAnswered = true
            router = try TbrdBackend.onlyRouter(of: try TbrdBackend.routerRows(reply).map { ($0.id, $0.path) })
        }
        let path = try TbrdBackend.objectPath(of: router)
        let reply: [DBusValue]
        do {
            reply = try connection.call(
                destination: TBRDBusAPI.busName, path: path, interface: TBRDBusAPI.BorderRouter.interface, member: call.member,
                arguments: call.arguments)
        } catch where !tbrdAnswered && isNotRunning(error) {
            return nil
        } catch where !router.isVerified && (error.name == .unknownObject || error.name == .unknownMethod) {
            return nil
        } catch {
            throw ErrorMapping.controlError(error, doing: call.doing(router))
        }
        return (router, try call.decode(reply, router.id))
    }

    /// Whether `error` says that nobody owns tbrd's name.
    private static func isNotRunning(_ error: DBusError) -> Bool {
        error.name == .serviceUnknown || error.name == .nameHasNoOwner
    }
}
