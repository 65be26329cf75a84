import Glibc
import MQTT
import MQTTMapping
import TBRMQTTAdapter

// tbrd.conf's mqtt-* settings, checked at start (issue 50): a password file others may read, or that
// someone else owns, stops tbrd with the reason.

extension DaemonConfiguration {
    /// The MQTT client's options, or nil when `mqtt-url` is unset.
    /// - Throws: ``DaemonStartError/mqttUnusable(_:)`` saying what is wrong.
    func mqttOptions() throws(DaemonStartError) -> MQTTClientOptions? {
        guard let url = mqttURL else {
            if mqttUsername != nil || mqttPasswordFile != nil { throw .mqttUnusable("mqtt-username or mqtt-password-file is set but mqtt-url is not") }
            return nil
        }
        var password: String?
        if let path = mqttPasswordFile {
            switch SecretFile.read(path, setting: "mqtt-password-file") {
            case .success(let bytes):
                let line = bytes.split(separator: 0x0A, maxSplits: 1, omittingEmptySubsequences: false).first ?? []
                password = String(decoding: line.last == 0x0D ? line.dropLast() : line, as: UTF8.self)
            case .failure(let refusal): throw .mqttUnusable(refusal.description)
            }
            if mqttUsername == nil { throw .mqttUnusable("mqtt-password-file is set but mqtt-username is not") }
        }
        if let ca = mqttCAFile {
            guard url.tls else { throw .mqttUnusable("mqtt-ca-file is set but mqtt-url is not mqtts://") }
            guard access(ca, R_OK) == 0 else { throw .mqttUnusable("mqtt-ca-file \(ca) cannot be read") }
        }
        let topics = mqttTopics
        return MQTTClientOptions(
            host: url.host, port: url.port, tls: url.tls, caFile: mqttCAFile, username: mqttUsername, password: password,
            clientID: mqttClientIDOrDefault, will: MQTTAdapter.will(topics), subscriptions: MQTTAdapter.subscriptions(topics))
    }

    /// tbrd's topics as configured.
    var mqttTopics: MQTTTopics { MQTTTopics(base: mqttBaseTopic, discoveryPrefix: mqttDiscoveryPrefix) }

    /// `mqtt-client-id`, or `tbrd-` and the host name.
    var mqttClientIDOrDefault: String {
        if let mqttClientID { return mqttClientID }
        var name = [CChar](repeating: 0, count: 256)
        guard gethostname(&name, name.count - 1) == 0 else { return "tbrd" }
        let host = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return host.isEmpty ? "tbrd" : "tbrd-" + host
    }
}
