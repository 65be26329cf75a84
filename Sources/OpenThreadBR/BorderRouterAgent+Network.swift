import DBus
import TBRFoundation
public import MeshCoP

extension BorderRouterAgent {
    /// `Attach()` with no arguments: brings Thread up with the stored active dataset and returns when the
    /// node is attached (child, router or leader).
    ///
    /// With no stored dataset the real agent never answers (the call times out after
    /// ``networkTimeout``) and refuses later attaches with `InvalidState` until it restarts: store a
    /// dataset first.
    /// - Throws: ``AgentError``; `InvalidState` if an attach or join is already running.
    public func attach() async throws(AgentError) {
        try await callVoid("Attach", timeout: networkTimeout)
    }

    /// `Attach(ay networkkey, q panid, s networkname, t extpanid, ay pskc, u channel_mask)`: forms a new
    /// network from a fresh dataset with the given fields overridden, and returns when attached.
    /// - Parameters:
    ///   - networkKey: nil for a random key.
    ///   - panID: nil for a random PAN ID.
    ///   - networkName: the network name.
    ///   - extendedPANID: nil for a random one.
    ///   - pskc: nil for a random PSKc.
    ///   - channelMask: bit *n* allows channel *n*; one allowed channel is picked at random.
    /// - Throws: ``AgentError``: `InvalidArgs` for a zero mask or a key/PSKc that is not 16 bytes.
    public func attach(
        networkKey: NetworkKey? = nil, panID: PANID? = nil, networkName: NetworkName,
        extendedPANID: ExtendedPANID? = nil, pskc: PSKc? = nil, channelMask: UInt32 = 0x07FF_F800
    ) async throws(AgentError) {
        try await callVoid(
            "Attach",
            [
                .bytes(networkKey?.bytes ?? []), .uint16(panID?.rawValue ?? 0xFFFF), .string(networkName.rawValue),
                .uint64(extendedPANID?.rawValue ?? .max), .bytes(pskc?.bytes ?? []), .uint32(channelMask),
            ], timeout: networkTimeout)
    }

    /// `Detach()`: Thread and IPv6 off, role `disabled`; the dataset is kept.
    public func detach() async throws(AgentError) { try await callVoid("Detach") }

    /// `Join(ay)`: joins the network of `tlvs` and returns when attached. Needs Thread enabled
    /// (``setThreadEnabled(_:)``), else `InvalidState`. Already attached to the same network (channel,
    /// network key and extended PAN ID): replaces the dataset and returns at once. Attached elsewhere:
    /// detaches, erases persistent data, and joins.
    /// - Throws: ``AgentError``: an invalid request for over 254 bytes; `InvalidState`, `Busy`, `Abort`
    ///   (a newer join or a leave/disable aborted it), `InvalidArgs` from the agent.
    public func join(_ tlvs: [UInt8]) async throws(AgentError) {
        try checkDatasetLength(tlvs, "Join")
        try await callVoid("Join", [.bytes(tlvs)], timeout: networkTimeout)
    }

    /// `Join` with an encoded dataset.
    public func join(_ dataset: OperationalDataset) async throws(AgentError) { try await join(dataset.encoded()) }

    /// `AttachAllNodesTo(ay) → x`: moves the whole network to the complete active dataset `tlvs`.
    /// - Returns: the delay before the new dataset takes effect: 300 s when connectivity changes (the
    ///   agent sends a pending dataset with that delay), zero otherwise.
    /// - Throws: ``AgentError``: `InvalidArgs` for an invalid or partial dataset, or one that carries a
    ///   Pending Timestamp or Delay Timer; `Busy` while an attach runs; `Rejected`/`Failed` from the leader.
    public func attachAllNodes(to tlvs: [UInt8]) async throws(AgentError) -> Duration {
        try checkDatasetLength(tlvs, "AttachAllNodesTo")
        let reply = try await call("AttachAllNodesTo", [.bytes(tlvs)], timeout: networkTimeout)
        let ms = try decode(reply.first, as: Int64.self, "AttachAllNodesTo")
        return .milliseconds(ms)
    }

    /// `SetThreadEnabled(b)`. On: Thread comes up if a dataset is stored; the host state becomes
    /// "enabled", which ``join(_:)`` needs. Off: detaches gracefully (~1 s), then replies.
    /// - Throws: ``AgentError``: `Busy` while a disable runs.
    public func setThreadEnabled(_ enabled: Bool) async throws(AgentError) {
        try await callVoid("SetThreadEnabled", [.bool(enabled)], timeout: networkTimeout)
    }

    /// `FactoryReset()`: detaches, erases persistent data (dataset, Border Agent ID) and resets.
    public func factoryReset() async throws(AgentError) { try await callVoid("FactoryReset", timeout: networkTimeout) }

    /// `Reset()`: resets the OpenThread instance, which resumes its network.
    public func reset() async throws(AgentError) { try await callVoid("Reset") }

    /// `SetNat64Enabled(b)`. `NotImplemented` on agents built without NAT64.
    public func setNat64Enabled(_ enabled: Bool) async throws(AgentError) {
        try await callVoid("SetNat64Enabled", [.bool(enabled)])
    }

    /// `SetBorderAgentEnabled(b)`: publishes or withdraws the `_meshcop._udp` service.
    public func setBorderAgentEnabled(_ enabled: Bool) async throws(AgentError) {
        try await callVoid("SetBorderAgentEnabled", [.bool(enabled)])
    }

    /// `UpdateVendorMeshCopTxtEntries(a(say))`: replaces the vendor entries of the `_meshcop._udp` TXT
    /// record; an `id` entry of 16 bytes sets the Border Agent ID.
    /// - Throws: ``AgentError``: `InvalidArgs` for an empty key, a reserved key, an oversized entry or an
    ///   `id` that is not 16 bytes.
    public func updateVendorMeshCoPTXTEntries(_ entries: [VendorTXTEntry]) async throws(AgentError) {
        try await callVoid(
            "UpdateVendorMeshCopTxtEntries", [.array(element: VendorTXTEntry.dbusType, entries.map(\.dbusValue))])
    }

    /// `Scan() → a(tstayqqynyybb)`: an active scan on every channel.
    public func scan() async throws(AgentError) -> [ScanResult] {
        let reply = try await call("Scan", timeout: networkTimeout)
        guard case .array(_, let items)? = reply.first else {
            throw failure("Scan", .unexpectedReply("expected an array of scan results"))
        }
        do { return try items.map { (v) throws(DBusValueError) in try ScanResult(dbusValue: v) } } catch {
            throw failure("Scan", .unexpectedReply(error.description))
        }
    }

    /// `EnergyScan(u) → a(yy)`: the maximum RSSI of each preferred channel over `duration` per channel.
    /// - Throws: ``AgentError``: `InvalidArgs` for 65535 ms or more.
    public func energyScan(duration: Duration) async throws(AgentError) -> [EnergyScanResult] {
        let ms = duration.wholeMilliseconds ?? .max
        let reply = try await call("EnergyScan", [.uint32(ms)], timeout: networkTimeout)
        guard case .array(_, let items)? = reply.first else {
            throw failure("EnergyScan", .unexpectedReply("expected an array of energy scan results"))
        }
        do { return try items.map { (v) throws(DBusValueError) in try EnergyScanResult(dbusValue: v) } } catch {
            throw failure("EnergyScan", .unexpectedReply(error.description))
        }
    }
}
