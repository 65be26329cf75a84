import DBus

/// An IPv6 prefix as the agent's D-Bus API carries it, `(ayy)`: the first 8 bytes and the length in bits.
struct IPv6Prefix: Sendable, Hashable, Comparable {
    /// Eight bytes (`OTBR_IP6_PREFIX_SIZE`), as given.
    let bytes: [UInt8]
    let length: UInt8

    /// The prefix of `(ayy)`, nil unless the bytes are 8 and the length at most 64.
    init?(dbus value: DBusValue) {
        guard case .structure(let f) = value, f.count == 2, case .bytes(let b) = f[0], b.count == 8, case .byte(let l) = f[1],
            l <= 64
        else { return nil }
        self.init(bytes: b, length: l)
    }

    init(bytes: [UInt8], length: UInt8) {
        self.bytes = bytes
        self.length = length
    }

    var dbusValue: DBusValue { .structure([.bytes(bytes), .byte(length)]) }

    /// The bytes the length covers (a Prefix TLV's prefix field).
    var significantBytes: [UInt8] { Array(bytes.prefix((Int(length) + 7) / 8)) }

    /// `Ip6::Prefix::operator<` for prefixes of one length: byte by byte.
    static func < (a: IPv6Prefix, b: IPv6Prefix) -> Bool {
        a.length != b.length ? a.length < b.length : a.bytes.lexicographicallyPrecedes(b.bytes)
    }
}

/// An on-mesh prefix the border router put in the Network Data (`otBorderRouterConfig`): from
/// `AddOnMeshPrefix`, or its routing manager's OMR prefix.
struct OnMeshPrefixEntry: Sendable, Equatable {
    var prefix: IPv6Prefix
    /// RFC 4191 preference: -1 low, 0 medium, 1 high.
    var preference: Int8
    var preferred = false, slaac = false, dhcp = false, configure = false, defaultRoute = false, onMesh = false
    var stable = false, ndDns = false, dp = false

    /// The entry of `AddOnMeshPrefix`'s `((ayy)qybbbbbbbbb)`; the RLOC16 given is ignored (the agent's
    /// own is used); nil for another shape.
    init?(dbus value: DBusValue) {
        guard case .structure(let f) = value, f.count == 12, let prefix = IPv6Prefix(dbus: f[0]), case .byte(let p) = f[2]
        else { return nil }
        let flags = f[3...].compactMap { if case .bool(let b) = $0 { b } else { nil } }
        guard flags.count == 9 else { return nil }
        self.prefix = prefix
        preference = Int8(bitPattern: p)
        (preferred, slaac, dhcp, configure, defaultRoute) = (flags[0], flags[1], flags[2], flags[3], flags[4])
        (onMesh, stable, ndDns, dp) = (flags[5], flags[6], flags[7], flags[8])
    }

    init(prefix: IPv6Prefix, preference: Int8) {
        self.prefix = prefix
        self.preference = preference
    }

    /// The `OnMeshPrefixes` element: `((ayy)qybbbbbbbbb)` with the registering border router's RLOC16.
    func dbusValue(rloc16: UInt16) -> DBusValue {
        .structure(
            [prefix.dbusValue, .uint16(rloc16), .byte(UInt8(bitPattern: preference))]
                + [preferred, slaac, dhcp, configure, defaultRoute, onMesh, stable, ndDns, dp].map { .bool($0) })
    }

    /// Whether it can be an OMR prefix (`RoutingManager::IsValidOmrPrefix`): a /64 that is neither
    /// link-local nor multicast, on-mesh, SLAAC and stable.
    var isValidOMR: Bool {
        let linkLocal = prefix.bytes[0] == 0xFE && prefix.bytes[1] & 0xC0 == 0x80
        return prefix.length == 64 && !linkLocal && prefix.bytes[0] != 0xFF && onMesh && slaac && stable
    }
}

/// An external route the border router put in the Network Data (`otExternalRouteConfig`).
struct ExternalRouteEntry: Sendable, Equatable {
    var prefix: IPv6Prefix
    var preference: Int8
    var stable: Bool

    /// The entry of `AddExternalRoute`'s `((ayy)qybb)` (RLOC16 and next-hop flag ignored); nil for
    /// another shape.
    init?(dbus value: DBusValue) {
        guard case .structure(let f) = value, f.count == 5, let prefix = IPv6Prefix(dbus: f[0]), case .byte(let p) = f[2],
            case .bool(let stable) = f[3]
        else { return nil }
        self.prefix = prefix
        preference = Int8(bitPattern: p)
        self.stable = stable
    }

    /// The `ExternalRoutes` element, `((ayy)qybb)`: the registering border router's RLOC16, and "next hop
    /// is this device" true (every entry is the agent's own).
    func dbusValue(rloc16: UInt16) -> DBusValue {
        .structure([prefix.dbusValue, .uint16(rloc16), .byte(UInt8(bitPattern: preference)), .bool(stable), .bool(true)])
    }
}
