/// tbrd's MQTT topics under its base topic (`mqtt-base-topic`, `tbrd`) and Home Assistant's discovery
/// prefix (`mqtt-discovery-prefix`, `homeassistant`; docs/mqtt.md, "Topics"). Pure.
///
/// A router id or structure name is one topic level: as it is when it holds none of `/`, `+`, `#`, `%`
/// or a control character, else with each such byte written `%XX` (so `Living room` stays
/// `Living room` and `A/B` is `A%2FB`).
public struct MQTTTopics: Sendable, Hashable {
    /// The base topic, without a trailing `/`.
    public let base: String
    /// The discovery prefix; nil when discovery is off.
    public let discoveryPrefix: String?

    /// The topics under `base` and `discoveryPrefix` (an empty prefix turns discovery off).
    public init(base: String, discoveryPrefix: String) {
        self.base = base
        self.discoveryPrefix = discoveryPrefix.isEmpty ? nil : discoveryPrefix
    }

    /// `online` or `offline`, retained (the last will).
    public var bridgeState: String { base + "/bridge/state" }
    /// tbrd's version, API version, routers and structures, retained.
    public var bridgeInfo: String { base + "/bridge/info" }
    /// Router `id`'s `tbrctl --json info` document, retained.
    public func router(_ id: String) -> String { base + "/routers/" + Self.level(id) }
    /// What tbrd last read of router `id`'s mesh (``TBRDocuments``' `RouterReading`), retained.
    public func routerStatus(_ id: String) -> String { router(id) + "/status" }
    /// Structure `name`'s `tbrctl --json structure show` document, retained.
    public func structure(_ name: String) -> String { base + "/structures/" + Self.level(name) }
    /// Structure `name`'s network directory (no secrets), retained.
    public func structureNetworks(_ name: String) -> String { structure(name) + "/networks" }
    /// Where Home Assistant's select sets structure `name`'s internet access (a bare option word).
    public func internetAccessCommand(_ name: String) -> String { structure(name) + "/internet-access/set" }
    /// Events, not retained: `epskc`, `policy`, `commissioning`, `problem`.
    public func event(_ kind: String) -> String { base + "/events/" + kind }
    /// Every request (subscribed).
    public var requests: String { base + "/bridge/request/#" }
    /// Every structure's internet-access command (subscribed).
    public var internetAccessCommands: String { base + "/structures/+/internet-access/set" }
    /// The answer to operation `operation`.
    public func response(_ operation: String) -> String { base + "/bridge/response/" + operation }
    /// Home Assistant's own status (`online` when it starts), subscribed to publish discovery again.
    public var homeAssistantStatus: String? { discoveryPrefix.map { $0 + "/status" } }

    /// The operation a request topic names (`structure/policy` of `tbrd/bridge/request/structure/policy`),
    /// or nil for another topic.
    public func operation(ofRequest topic: String) -> String? {
        let prefix = base + "/bridge/request/"
        guard topic.hasPrefix(prefix), topic.count > prefix.count else { return nil }
        return String(topic.dropFirst(prefix.count))
    }

    /// The structure name an internet-access command topic names, or nil for another topic.
    public func structure(ofInternetAccessCommand topic: String) -> String? {
        let prefix = base + "/structures/", suffix = "/internet-access/set"
        guard topic.hasPrefix(prefix), topic.hasSuffix(suffix), topic.count > prefix.count + suffix.count else { return nil }
        return Self.name(ofLevel: String(topic.dropFirst(prefix.count).dropLast(suffix.count)))
    }

    /// `text` as one topic level (see the type's notes).
    public static func level(_ text: String) -> String {
        guard text.utf8.contains(where: needsEscape) else { return text }
        var out: [UInt8] = []
        for byte in text.utf8 {
            if needsEscape(byte) {
                out += Array(("%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)).utf8)
            } else {
                out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The name a topic level spells (the inverse of ``level(_:)``); nil when it is not one ``level(_:)``
    /// makes (a `/`, or a `%` not followed by two hex digits).
    public static func name(ofLevel level: String) -> String? {
        var bytes: [UInt8] = []
        var iterator = Array(level.utf8).makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "#") { return nil }
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next(), let low = iterator.next(), let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16)
            else { return nil }
            bytes.append(value)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x7F || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "#") || byte == UInt8(ascii: "%")
    }
}
