import TBRDBusAdapter
import TBRCoreServices
import Glibc
import HTTPAPIRouting
import TBRCore
import DBus
import FoundationEssentials
import HTTPMessages
import HTTPServer
import MDNS
import MeshCoP
import Store
import TBRDBusAPI
import TBRFoundation
import TBRHTTPAdapter

// The HTTPS API's life (off unless `http-listen` is set) and its tokens over D-Bus (Manager1's
// CreateApiToken, ListApiTokens, RevokeApiToken, ApiInfo; docs/dbus-api.md).

extension DaemonRuntime {
    /// Starts the HTTPS API when `http-listen` is set: TLS off loopback (or with `http-tls = on`), with the
    /// identity kept in the state directory, and publishes `_tbrd._tcp` with the fingerprint.
    /// - Throws: ``DaemonStartError/apiUnusable(_:_:)``.
    func startAPI() async throws {
        guard let listen = configuration.httpListen else { return }
        var tls: HTTPServer.TLSIdentity?
        if !listen.isLoopback || configuration.httpTLS == .on {
            let identity: APIIdentity
            do {
                let (found, made) = try APIIdentity.loadOrMake(in: configuration.stateDirectory, commonName: "tbrd")
                identity = found
                if made { logger.notice("made the HTTPS API's certificate", [("sha256", found.fingerprint)]) }
            } catch {
                throw DaemonStartError.apiUnusable(listen.description, error.description)
            }
            tls = HTTPServer.TLSIdentity(privateKeyPEM: identity.certificate.privateKeyPEM, certificatePEM: identity.certificate.certificatePEM)
            apiFingerprint = identity.fingerprint
        }
        Self.raiseDescriptorLimit(to: 4096, logger: logger)
        // The HTTP adapter over this core, bound to libmicrohttpd: the server calls the adapter, nothing else.
        let adapter = HTTPAdapter(core: core, logger: logger.child("api"))
        let server: HTTPServer
        do {
            // A connection is admitted by a valid token in its head: only then is its body read, and only
            // strangers give way when too many connections wait (docs/http-api.md, "Bounds and hostile clients").
            server = try HTTPServer.start(
                host: listen.host, port: listen.port, limits: HTTPServer.Limits(), tls: tls, admit: adapter.admits, handler: adapter.answer)
        } catch {
            throw DaemonStartError.apiUnusable(listen.description, error.description)
        }
        // The core's events reach the clients' streams while tbrd runs (a child of the service group).
        _ = inBackground { await adapter.run() }
        apiServer = server
        httpAdapter = adapter
        apiListing.set(listen: HTTPListen.text(host: listen.host, port: server.port), fingerprint: apiFingerprint)
        logger.notice("HTTPS API listening", [("address", listen.host), ("port", "\(server.port)"), ("tls", tls == nil ? "off (loopback)" : "on")])
        if !listen.isLoopback {
            let entries = [TXTEntry(key: "v", text: "1"), TXTEntry(key: "path", text: "/api/v1/")]
                + (apiFingerprint.isEmpty ? [] : [TXTEntry(key: "fp", text: apiFingerprint)])
            let type: ServiceType = "_tbrd._tcp"
            _ = await mdns.publish(ServiceRegistration(name: "tbrd", type: type, port: server.port, txt: MeshCoPTXTRecord(entries: entries).wireFormat))
        }
    }

    /// Raises the soft limit of open descriptors to `wanted` (never past the hard limit, never down):
    /// every connection of the API holds one, and systemd's default soft limit (1,024) is below the
    /// server's 2,048 connections.
    nonisolated static func raiseDescriptorLimit(to wanted: rlim_t, logger: Logger) {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < wanted else { return }
        let before = limit.rlim_cur
        limit.rlim_cur = min(wanted, limit.rlim_max)
        if limit.rlim_cur > before, setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) != 0 {
            logger.warning("cannot raise the limit of open descriptors", [("limit", "\(before)")])
        }
    }

    /// Stops the server: it ends the event streams still open (each unsubscribes as it closes) and waits
    /// for the requests in flight.
    func stopAPI() async {
        guard let server = apiServer else { return }
        await server.shutdown()
        apiServer = nil
        httpAdapter = nil
        apiListing.set(listen: "", fingerprint: "")
    }
}
