// libFuzzer target for the HTTPS API's request decoding (fuzz/run.sh api SECONDS): what any client on the
// network sends tbrd's API before a handler runs. The input is a request line ("METHOD PATH") then the
// body: route → percent-decoding → the JSON body the route takes.
//
// Oracles, beyond "never crash": a routed id or name, percent-encoded again byte by byte, routes to the
// same resource; every route needs a scope, and a write needs more than `read`.
import HTTPAPIRouting

@_cdecl("LLVMFuzzerTestOneInput")
public func apiFuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    let newline = bytes.firstIndex(of: 10) ?? bytes.count
    let line = String(decoding: bytes[..<newline], as: UTF8.self)
    let body = newline < bytes.count ? Array(bytes[(newline + 1)...]) : []
    let parts = line.split(separator: " ", maxSplits: 1)
    let method = parts.first.map(String.init) ?? "", path = parts.count > 1 ? String(parts[1]) : ""
    guard case .success(let route) = APIRoute.match(method: method, path: path) else {
        _ = try? EpskcRequest.decode(body)
        _ = try? PolicyRequest.decode(body)
        _ = try? JoinRequest.decode(body)
        _ = try? StructureRequest.decode(body)
        _ = try? CommissionRequest.decode(body)
        return 0
    }
    if route.isWrite && route.scope == .read { fatalError("a write needs more than read") }
    func encoded(_ text: String) -> String {
        text.utf8.map { b in
            let hex = String(b, radix: 16, uppercase: true)
            return "%" + (hex.count == 1 ? "0" + hex : hex)
        }.joined()
    }
    switch route {
    case .router(let id):
        guard case .success(.router(id)) = APIRoute.match(method: "GET", path: "/api/v1/routers/" + encoded(id)) else {
            fatalError("a router id does not route back to itself")
        }
    case .activateEpskc:
        if let request = try? EpskcRequest.decode(body) { _ = request.durationSeconds }
    case .setPolicy(let name):
        guard case .success(.policy(name)) = APIRoute.match(method: "GET", path: "/api/v1/structures/" + encoded(name) + "/policy") else {
            fatalError("a structure name does not route back to itself")
        }
        if let request = try? PolicyRequest.decode(body) { _ = request.internetAccessOption }
    case .join:
        if let request = try? JoinRequest.decode(body) { _ = request.dataset }
    case .createStructure:
        if let request = try? StructureRequest.decode(body) { _ = request.name }
    case .commission(let name):
        guard case .success(.nodes(name)) = APIRoute.match(method: "GET", path: "/api/v1/structures/" + encoded(name) + "/nodes") else {
            fatalError("a structure name does not route back to itself")
        }
        if let request = try? CommissionRequest.decode(body) { _ = request.codes }
    case .cancelCommissioning(let name, let session):
        let path = "/api/v1/structures/" + encoded(name) + "/commissioning/" + encoded(session)
        guard case .success(.cancelCommissioning(name, session)) = APIRoute.match(method: "DELETE", path: path) else {
            fatalError("a session does not route back to itself")
        }
    case .addRoom(let name, let room):
        let path = "/api/v1/structures/" + encoded(name) + "/rooms/" + encoded(room)
        guard case .success(.removeRoom(name, room)) = APIRoute.match(method: "DELETE", path: path) else {
            fatalError("a room does not route back to itself")
        }
    default:
        break
    }
    return 0
}
