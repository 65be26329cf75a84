public import TBRFoundation

/// Home Assistant's MQTT discovery configs for tbrd, its border routers and its structures (docs/mqtt.md,
/// "Home Assistant"): `<prefix>/<component>/<node>/<object>/config`, retained. Every entity reads a
/// retained state topic of tbrd's and is available while `<base>/bridge/state` is `online`. Pure.
public struct HomeAssistantDiscovery: Sendable {
    /// One config: its topic and its JSON.
    public struct Config: Sendable, Hashable {
        public var topic: String
        public var payload: JSON
    }

    /// What a border router's device block says of it (from its TXT record and agent).
    public struct RouterDevice: Sendable, Hashable {
        public var id: String
        public var manufacturer: String
        public var model: String
        public var softwareVersion: String

        /// A device as given (empty strings are left out of the block).
        public init(id: String, manufacturer: String, model: String, softwareVersion: String) {
            self.id = id
            self.manufacturer = manufacturer
            self.model = model
            self.softwareVersion = softwareVersion
        }
    }

    /// The internet-access options the structure's select offers: the CLI's words.
    public static let internetAccessWords = ["none", "nat64-only", "dhcpv6-pd-only", "all"]

    public let topics: MQTTTopics
    /// This tbrd's node id in unique ids and topics (from `mqtt-client-id`).
    public let node: String
    /// tbrd's version.
    public let version: String

    /// The configs of the tbrd whose client id is `clientID`; nil when discovery is off.
    public init?(topics: MQTTTopics, clientID: String, version: String) {
        guard topics.discoveryPrefix != nil else { return nil }
        self.topics = topics
        self.node = Self.objectID(clientID)
        self.version = version
    }

    /// `text` as a discovery object id: itself when it is only `a-z`, `0-9`, `_` and `-`; otherwise those
    /// characters kept (lower-cased), others `_`, and 8 hex digits of its FNV-1a hash so that two names
    /// never share one.
    public static func objectID(_ text: String) -> String {
        let allowed: (UInt8) -> Bool = { b in (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39) || b == 0x5F || b == 0x2D }
        if !text.isEmpty, text.utf8.allSatisfy(allowed) { return text }
        let kept = String(decoding: text.lowercased().utf8.map { allowed($0) ? $0 : 0x5F }, as: UTF8.self)
        var hash: UInt32 = 2_166_136_261
        for byte in text.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        let hex = String(hash, radix: 16)
        return String(kept.prefix(48)) + "_" + String(repeating: "0", count: 8 - hex.count) + hex
    }

    private var bridgeIdentifier: String { "tbrd_" + node }

    private func topic(_ component: String, _ object: String) -> String {
        (topics.discoveryPrefix ?? "homeassistant") + "/" + component + "/" + node + "/" + object + "/config"
    }

    private var availability: [(String, JSON)] {
        [("availability_topic", .string(topics.bridgeState)), ("payload_available", "online"), ("payload_not_available", "offline")]
    }

    private var origin: JSON { ["name": "tbrd", "sw_version": .string(version)] }

    private func entity(
        _ component: String, object: String, name: String, device: JSON, stateTopic: String, valueTemplate: String, extra: [(String, JSON)] = []
    ) -> Config {
        var members: [(String, JSON)] = [
            // default_entity_id (COMPONENT.ID): what Home Assistant reads since 2025.10 in place of object_id,
            // which it stopped reading in 2026.4.
            ("name", .string(name)), ("unique_id", .string(bridgeIdentifier + "_" + object)),
            ("default_entity_id", .string(component + "." + String((bridgeIdentifier + "_" + object).map { $0 == "-" ? "_" : $0 }))),
            ("state_topic", .string(stateTopic)), ("value_template", .string(valueTemplate)), ("device", device), ("origin", origin),
        ]
        members += availability + extra
        return Config(topic: topic(component, object), payload: .object(JSONObject(members)))
    }

    /// tbrd's own device: its version, and a problem sensor that is on while any problem is open.
    public func bridge() -> [Config] {
        let device: JSON = [
            "identifiers": [.string(bridgeIdentifier)], "name": .string("tbrd " + node), "manufacturer": "tbrd",
            "model": "Thread Border Router manager", "sw_version": .string(version),
        ]
        return [
            entity(
                "binary_sensor", object: "problem", name: "Problem", device: device, stateTopic: topics.bridgeInfo,
                valueTemplate: "{{ 'ON' if value_json.problems > 0 else 'OFF' }}", extra: [("device_class", "problem"), ("entity_category", "diagnostic")]),
            entity(
                "sensor", object: "problems", name: "Open problems", device: device, stateTopic: topics.bridgeInfo,
                valueTemplate: "{{ value_json.problems }}", extra: [("state_class", "measurement"), ("entity_category", "diagnostic")]),
        ]
    }

    /// A border router's device: online, role, channel, network name, router and child counts.
    public func router(_ r: RouterDevice) -> [Config] {
        let object = "router_" + Self.objectID(r.id)
        var block: [(String, JSON)] = [
            ("identifiers", [.string(bridgeIdentifier + "_" + object)]), ("name", .string(r.id)), ("via_device", .string(bridgeIdentifier)),
        ]
        if !r.manufacturer.isEmpty { block.append(("manufacturer", .string(r.manufacturer))) }
        if !r.model.isEmpty { block.append(("model", .string(r.model))) }
        if !r.softwareVersion.isEmpty { block.append(("sw_version", .string(r.softwareVersion))) }
        let device = JSON.object(JSONObject(block))
        let status = topics.routerStatus(r.id), info = topics.router(r.id)
        return [
            entity(
                "binary_sensor", object: object + "_online", name: "Online", device: device, stateTopic: status,
                valueTemplate: "{{ 'ON' if value_json.online else 'OFF' }}", extra: [("device_class", "connectivity")]),
            entity(
                "sensor", object: object + "_role", name: "Role", device: device, stateTopic: status,
                valueTemplate: "{{ value_json.role if value_json.role else 'offline' }}", extra: [("icon", "mdi:router-network")]),
            entity("sensor", object: object + "_channel", name: "Channel", device: device, stateTopic: info, valueTemplate: "{{ value_json.network.channel }}"),
            entity(
                "sensor", object: object + "_network_name", name: "Network name", device: device, stateTopic: info,
                valueTemplate: "{{ value_json.network.networkName }}"),
            entity(
                "sensor", object: object + "_routers", name: "Routers", device: device, stateTopic: status, valueTemplate: "{{ value_json.routers }}",
                extra: [("state_class", "measurement")]),
            entity(
                "sensor", object: object + "_children", name: "Children", device: device, stateTopic: status, valueTemplate: "{{ value_json.children }}",
                extra: [("state_class", "measurement")]),
        ]
    }

    /// The topics of router `id`'s configs, to clear when it is removed.
    public func routerTopics(_ id: String) -> [String] { router(RouterDevice(id: id, manufacturer: "", model: "", softwareVersion: "")).map(\.topic) }

    /// A structure's device: its internet access as a select (the CLI's words; setting it sets the
    /// structure's policy) and how many of its routers have not applied it.
    public func structure(_ name: String) -> [Config] {
        let object = "structure_" + Self.objectID(name)
        let device: JSON = [
            "identifiers": [.string(bridgeIdentifier + "_" + object)], "name": .string(name), "via_device": .string(bridgeIdentifier),
            "model": "Structure",
        ]
        let state = topics.structure(name)
        // The structure document spells options as D-Bus does (nat64Only); the select shows the CLI's words,
        // and `unspecified` as no option ("None" is Home Assistant's word for it).
        let words = "{'none': 'none', 'nat64Only': 'nat64-only', 'dhcpv6PdOnly': 'dhcpv6-pd-only', 'all': 'all'}"
        return [
            entity(
                "select", object: object + "_internet_access", name: "Internet access", device: device, stateTopic: state,
                valueTemplate: "{{ \(words).get(value_json.settings.internetAccessOption, 'None') }}",
                extra: [
                    ("command_topic", .string(topics.internetAccessCommand(name))), ("options", .array(Self.internetAccessWords.map(JSON.string))),
                    ("icon", "mdi:web"),
                ]),
            entity(
                "sensor", object: object + "_routers_not_applied", name: "Routers not applied", device: device, stateTopic: state,
                valueTemplate: "{{ value_json.policy | rejectattr('state', 'eq', 'applied') | list | count }}",
                extra: [("state_class", "measurement")]),
        ]
    }

    /// The topics of structure `name`'s configs, to clear when it is deleted.
    public func structureTopics(_ name: String) -> [String] { structure(name).map(\.topic) }
}
