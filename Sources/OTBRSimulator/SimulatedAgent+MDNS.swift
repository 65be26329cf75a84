import MDNS
import MeshCoP
import OpenThreadBR

/// What the agent publishes over mDNS with `--mdns` (ot-br-posix's `BorderAgent`, OpenThread's
/// `TxtData::Prepare`): `_meshcop._udp` with the TXT keys of its state, and `_meshcop-e._udp` (empty
/// TXT, a new port per key) while an ephemeral key is active. Recomputed after every method call,
/// control call and timer, and published when it changed.
extension SimulatedAgent {
    /// The services the agent's state calls for now.
    struct Advertisement: Equatable, Sendable {
        var meshcop: ServiceRegistration?
        var ephemeral: ServiceRegistration?
    }

    /// The Border Agent port while the Border Agent runs (the node is attached); the dummy port otherwise.
    static let dummyBorderAgentPort: UInt16 = 49152

    /// Brings the published services in line with the state. Calls that arrive while a publication is
    /// under way only mark it stale; the running one publishes again until nothing changed.
    func advertise() async {
        guard let mdns else { return }
        advertisementStale = true
        guard !advertising else { return }
        advertising = true
        defer { advertising = false }
        while advertisementStale {
            advertisementStale = false
            let wanted = advertisement()
            guard wanted != published else { continue }
            meshcopPublication = await publish(wanted.meshcop, replacing: published.meshcop, id: meshcopPublication, on: mdns)
            var ephemeral = wanted.ephemeral
            if ephemeral != nil, let id = meshcopPublication, let name = await mdns.publishedName(id) {
                // Same instance name as `_meshcop._udp`, also after a name collision renamed it.
                ephemeral?.name = name
            }
            ephemeralPublication = await publish(ephemeral, replacing: published.ephemeral, id: ephemeralPublication, on: mdns)
            published = Advertisement(meshcop: wanted.meshcop, ephemeral: wanted.ephemeral)
        }
    }

    /// Publishes, updates or withdraws one service. - Returns: its publication now.
    private func publish(
        _ wanted: ServiceRegistration?, replacing old: ServiceRegistration?, id: PublicationID?, on mdns: MDNSClient
    ) async -> PublicationID? {
        guard wanted != old else { return id }
        switch (wanted, id) {
        case (nil, let current?):
            await mdns.withdraw(current)
            logger.debug("withdrew an mDNS service", [("type", old?.type.rawValue ?? "")])
            return nil
        case (let registration?, let current?):
            await mdns.update(current, to: registration)
            return current
        case (let registration?, nil):
            logger.debug("publishing an mDNS service", [("type", registration.type.rawValue), ("port", "\(registration.port)")])
            return await mdns.publish(registration)
        case (nil, nil):
            return nil
        }
    }

    /// The services for the current state: nothing while the process is off the bus.
    func advertisement() -> Advertisement {
        guard connection != nil else { return Advertisement() }
        let xa = ExtendedAddress(rawValue: persistent.extendedAddress)
        let name = "\(vendorName) \(productName) #\(xa.instanceNameSuffix)"
        var result = Advertisement()
        if runtime.borderAgentEnabled {
            let port = runtime.role.isAttached ? borderAgentPort : Self.dummyBorderAgentPort
            result.meshcop = ServiceRegistration(name: name, type: .meshcop, port: port, txt: meshcopTXT(xa).wireFormat)
        }
        if epskcKeyActive {
            result.ephemeral = ServiceRegistration(name: name, type: .meshcopEphemeral, port: epskcPort())
        }
        return result
    }

    /// Whether a key is started, connected or accepted.
    var epskcKeyActive: Bool { [.started, .connected, .accepted].contains(runtime.epskc.state) }

    /// The active key's UDP port (`otBorderAgentEphemeralKeyGetUdpPort`), the same for mDNS, REST and the
    /// DTLS transport: the port a REST client asked for, else a random one, chosen once per key (the
    /// transport moves it when that one is taken).
    func epskcPort() -> UInt16 {
        if epskcAdvertisedKey?.generation != runtime.epskc.generation {
            epskcAdvertisedKey = (runtime.epskc.generation, UInt16.random(in: 49153...65535))
        }
        return epskcAdvertisedKey?.port ?? 0
    }

    /// The `_meshcop._udp` TXT record, keys as the real agent has them for its state: always `id rv sb
    /// tv xa` and the vendor's `vn mn` (and vendor entries); with a complete active dataset `xp nn`; when
    /// attached also `pt at omr`.
    func meshcopTXT(_ xa: ExtendedAddress) -> MeshCoPTXTRecord {
        var entries: [TXTEntry] = [
            TXTEntry(key: "id", value: runtime.borderAgentID),
            TXTEntry(key: "rv", text: "1"),
            TXTEntry(key: "sb", value: stateBitmap.txtValue),
            TXTEntry(key: "tv", text: "1.4.0"),
            TXTEntry(key: "xa", value: xa.bytes),
        ]
        if let tlvs = persistent.activeDataset, DatasetRules.isValidActive(tlvs), let dataset = DatasetRules.decode(tlvs) {
            if let xp = dataset.extendedPANID { entries.append(TXTEntry(key: "xp", value: xp.tlvValue)) }
            if let nn = dataset.networkName { entries.append(TXTEntry(key: "nn", value: nn.tlvValue)) }
            if runtime.role.isAttached {
                let pt = runtime.partitionID
                entries.append(TXTEntry(key: "pt", value: (0..<4).map { UInt8(truncatingIfNeeded: pt >> (24 - 8 * $0)) }))
                if let at = dataset.activeTimestamp { entries.append(TXTEntry(key: "at", value: at.tlvValue)) }
                if let omr = favoredOMRPrefix {
                    // The favoured OMR prefix: its length in bits, then the prefix.
                    entries.append(TXTEntry(key: "omr", value: [omr.prefix.length] + omr.prefix.bytes))
                }
            }
        }
        entries += runtime.vendorTXT.map { TXTEntry(key: $0.key, value: $0.value) }
        entries.append(TXTEntry(key: "vn", text: vendorName))
        entries.append(TXTEntry(key: "mn", text: productName))
        return MeshCoPTXTRecord(entries: entries)
    }

    /// `sb`: PSKc connections while attached (the Border Agent runs), the interface state, high
    /// availability, the role, ePSKc support, and bit 12 as the observed agent sets it (`0x00001e31` as
    /// leader, `0x00001820` after `Detach`).
    var stateBitmap: StateBitmap {
        let attached = runtime.role.isAttached
        let status: StateBitmap.InterfaceStatus =
            switch runtime.role {
            case .disabled: .notInitialized
            case .detached: .initialized
            default: attached ? .active : .notInitialized
            }
        let role: StateBitmap.ThreadRole =
            switch runtime.role {
            case .child: .child
            case .router: .router
            case .leader: .leader
            default: .disabledOrDetached
            }
        var sb = StateBitmap(
            connectionMode: attached ? .pskc : .disabled, interfaceStatus: status, availability: .high, threadRole: role,
            isEPSKcSupported: configuration.epskcBuiltIn && runtime.epskc.state != .disabled)
        sb.rawValue |= 0x1000
        return sb
    }
}
