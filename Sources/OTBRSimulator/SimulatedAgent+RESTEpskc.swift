import HTTPMessages
import HTTPServer
import MeshCoP
import TBRFoundation

/// `/node/ba-epskc/state` and `/node/ba-epskc/key` (ot-br-posix `RestWebServer::EpskcState` and
/// `EpskcKey`; only in agents built with ePSKc): the same key and feature switch as D-Bus
/// `ActivateEphemeralKeyMode`, `DeactivateEphemeralKeyMode` and `EphemeralKeyEnabled`.
extension SimulatedAgent {
    /// `GET`: `"enabled"` unless the feature is off. `PUT` `"enable"`/`"disable"` (else 400): as D-Bus
    /// `Set EphemeralKeyEnabled` (switching off stops an active key, `LOCAL_CLOSE`).
    func restEpskcState(_ method: String, _ request: HTTPServerRequest) -> HTTPServerResponse {
        guard method == "PUT" else { return RESTAnswer.ok(.string(runtime.epskc.state == .disabled ? "disabled" : "enabled")) }
        let word = RESTAnswer.jsonString(request.body)
        guard word == "enable" || word == "disable" else { return RESTAnswer.problem(400) }
        applyTimer(runtime.epskc.setEnabled(word == "enable", now: uptimeMs))
        return RESTAnswer.empty()
    }

    /// `GET`: `{"state", "port"}`, the port 0 unless a key is active. `POST`: starts a key
    /// (``restStartKey(_:)``). `DELETE`: stops the key at once (`LOCAL_CLOSE`, as D-Bus
    /// `DeactivateEphemeralKeyMode(false)`), 200 also without one.
    func restEpskcKey(_ method: String, _ request: HTTPServerRequest) -> HTTPServerResponse {
        switch method {
        case "POST":
            return restStartKey(request.body)
        case "DELETE":
            applyTimer(runtime.epskc.stop(.localDisconnect, now: uptimeMs))
            return RESTAnswer.empty()
        default:
            let port = epskcKeyActive ? epskcPort() : 0
            return RESTAnswer.ok(["state": .string(runtime.epskc.state.rawValue), "port": JSON(port)])
        }
    }

    /// `POST /node/ba-epskc/key` with `{"lifetime": ms, "port": p}`, both optional, or no body: 400 for a
    /// body that is not a JSON object, a member that is not a number in range, or a lifetime above
    /// 600000 ms; 409 while a key is active or the feature is off; else a new 9-digit key through the
    /// path D-Bus `ActivateEphemeralKeyMode` takes (lifetime 0: 120000 ms), answered with its port: the
    /// one asked for, or for 0 the key's port that `_meshcop-e._udp` advertises.
    private func restStartKey(_ body: [UInt8]) -> HTTPServerResponse {
        var lifetime = EphemeralKeyManager.defaultLifetimeMs
        var port: UInt16 = 0
        if !body.isEmpty {
            guard case .object(let o)? = try? JSON(parsing: String(decoding: body, as: UTF8.self)) else {
                return RESTAnswer.problem(400)
            }
            if let value = o["lifetime"] {
                guard let ms = RESTAnswer.number(value), ms >= 0, ms <= Double(UInt32.max) else { return RESTAnswer.problem(400) }
                lifetime = UInt32(ms)
            }
            if let value = o["port"] {
                guard let p = RESTAnswer.number(value), p >= 0, p <= Double(UInt16.max) else { return RESTAnswer.problem(400) }
                port = UInt16(p)
            }
        }
        guard lifetime <= EphemeralKeyManager.maxLifetimeMs else { return RESTAnswer.problem(400) }
        guard let key = try? EphemeralKey.generate() else { return RESTAnswer.problem(500) }
        switch runtime.epskc.start(key: key.digits, lifetimeMs: lifetime, now: uptimeMs) {
        case .success(let action):
            // The port first: the key's DTLS transport starts on it.
            if port != 0 { epskcAdvertisedKey = (runtime.epskc.generation, port) }
            applyTimer(action)
            return RESTAnswer.ok(["tap": .string(key.digits), "port": JSON(epskcPort())])
        case .failure(.invalidState):
            return RESTAnswer.problem(409)
        case .failure(.invalidArgs):
            return RESTAnswer.problem(400)
        case .failure:
            return RESTAnswer.problem(500)
        }
    }
}
