import BorderRouterService
import HTTPAPIRouting
import TBRCore
import DBus
import TBRDBusAPI
import TBRFoundation

/// `tbrctl --json api info`: `{"listen", "certificateSha256"}` (null when off / plain HTTP on loopback).
struct APIInfoView: Encodable, Sendable {
    var listen: String?
    var certificateSha256: String?

    private enum CodingKeys: String, CodingKey { case listen, certificateSha256 }

    /// Both keys always, null where there is none.
    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(listen, forKey: .listen)
        try c.encode(certificateSha256, forKey: .certificateSha256)
    }
}

/// `tbrctl --json api token create`: `{"name", "scope", "token"}`; the token is shown this once.
struct CreatedAPIToken: Encodable, Sendable {
    var name: String
    var scope: String
    var token: String
}

/// One row of `tbrctl --json api token list`: `{"name", "scope", "createdAt", "lastUsedAt"}` (ISO 8601, null
/// when never used). Never the token: tbrd does not have it.
struct APITokenView: Encodable, Sendable {
    var name: String
    var scope: String
    var createdAt: String
    var lastUsedAt: String?

    private enum CodingKeys: String, CodingKey { case name, scope, createdAt, lastUsedAt }

    /// Every key always, `lastUsedAt` null when never used.
    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encode(scope, forKey: .scope)
        try c.encode(createdAt, forKey: .createdAt)
        try c.encode(lastUsedAt, forKey: .lastUsedAt)
    }
}

/// The HTTPS API's information and tokens through tbrd (`io.tbrd.Manager1`).
extension TbrdBackend {
    private typealias Manager = TBRDBusAPI.Manager

    func apiInfo() async throws -> APIInfoView {
        let reply = try await call(manager, Manager.apiInfo.name, [], doing: "reading the HTTPS API's address")
        guard reply.count == 2, case .string(let listen) = reply[0], case .string(let fingerprint) = reply[1] else {
            throw ControlError.failure("ApiInfo did not return (ss)")
        }
        return APIInfoView(listen: listen.isEmpty ? nil : listen, certificateSha256: fingerprint.isEmpty ? nil : fingerprint)
    }

    func createAPIToken(name: String, scope: APIScope) async throws -> CreatedAPIToken {
        let reply = try await call(
            manager, Manager.createApiToken.name, [.string(name), .string(scope.rawValue)], doing: "creating API token \(Quoted(name))")
        guard case .string(let token)? = reply.first else { throw ControlError.failure("CreateApiToken did not return a token") }
        return CreatedAPIToken(name: name, scope: scope.rawValue, token: token)
    }

    func apiTokens() async throws -> [APITokenView] {
        let reply = try await call(manager, Manager.listApiTokens.name, [], doing: "listing the API tokens")
        guard case .array(_, let rows)? = reply.first else { throw ControlError.failure("ListApiTokens did not return an array") }
        return rows.compactMap { row in
            guard case .structure(let f) = row, f.count == 4, case .string(let name) = f[0], case .string(let scope) = f[1],
                case .double(let created) = f[2], case .double(let used) = f[3]
            else { return nil }
            return APITokenView(
                name: name, scope: scope, createdAt: WallTime(secondsSinceEpoch: created).description,
                lastUsedAt: used > 0 ? WallTime(secondsSinceEpoch: used).description : nil)
        }
    }

    func revokeAPIToken(_ name: String) async throws {
        _ = try await call(manager, Manager.revokeApiToken.name, [.string(name)], doing: "revoking API token \(Quoted(name))")
    }
}
