import MQTT
import TBRCore
import TBRFoundation
import TBRMQTTAdapter

// MQTT's life (off unless `mqtt-url` is set): the client over libmosquitto, the adapter over the core.

extension DaemonRuntime {
    /// Starts MQTT when `mqtt-url` is set: the client connects (and connects again, with backoff, for as
    /// long as tbrd runs; a broker away never stops tbrd) and the adapter maps the core to it.
    /// - Throws: ``DaemonStartError/mqttUnusable(_:)`` when libmosquitto cannot be opened or used.
    func startMQTT() throws(DaemonStartError) {
        guard let options = mqttOptions, let url = configuration.mqttURL else { return }
        let client: MQTTClient
        do { client = try MQTTClient(options: options, logger: logger.child("mqtt")) } catch { throw .mqttUnusable(error.description) }
        let adapter = MQTTAdapter(
            core: core, client: client,
            settings: MQTTAdapter.Settings(
                topics: configuration.mqttTopics, clientID: options.clientID, admin: configuration.mqttAdmin, epskc: configuration.mqttEpskc,
                version: TBRDaemonMain.version),
            logger: logger.child("mqtt"))
        // A child of the service group: tbrd stopping cancels it.
        _ = inBackground { await adapter.run() }
        mqttAdapter = adapter
        logger.notice("MQTT: connecting", [("broker", url.description), ("client_id", options.clientID), ("base_topic", configuration.mqttBaseTopic)])
    }

    /// Says `offline` on the state topic and disconnects cleanly.
    func stopMQTT() async {
        guard let adapter = mqttAdapter else { return }
        mqttAdapter = nil
        await adapter.stop()
    }
}
