import DBus
import TBRDBusAPI

// Manager1's HTTPS API members: its tokens (made and kept hashed by the core's APIAuthenticator) and
// where it listens.

extension DBusAdapter {
    nonisolated func apiMethods() -> [Method] {
        typealias API = TBRDBusAPI.Manager
        return [
            method(API.createApiToken) { [self] call in
                [.string(try await authenticator.createToken(try call.argument(0), scope: try call.argument(1)))]
            },
            method(API.listApiTokens) { [self] _ in
                let rows = try await authenticator.tokens().map { t in
                    DBusValue.structure([.string(t.name), .string(t.scope), .double(t.createdAt), .double(t.lastUsedAt ?? 0)])
                }
                return [.array(element: .structure([.string, .string, .double, .double]), rows)]
            },
            method(API.revokeApiToken) { [self] call in
                try await authenticator.revokeToken(try call.argument(0))
                return []
            },
            method(API.apiInfo) { [self] _ in
                let (listen, fingerprint) = apiListing.current
                return [.string(listen), .string(fingerprint)]
            },
        ]
    }
}
