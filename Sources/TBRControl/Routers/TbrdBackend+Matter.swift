import DBus
import TBRDBusAPI
import TBRFoundation

/// Matter commissioning through tbrd (`io.tbrd.Structure1`: docs/dbus-api.md).
extension TbrdBackend {
    private typealias MatterAPI = TBRDBusAPI.Structure

    /// How long the commissioning calls may take: `PrepareMatterCommissioning` asks the commissioner
    /// whether it can be reached; `CompleteMatterCommissioning` is called once every payload has ended.
    static let matterCallTimeout: Duration = .seconds(90)

    /// `PrepareMatterCommissioning() → (s session, x expiresAt)`.
    func prepareMatterCommissioning(at path: ObjectPath, structure: String) async throws -> PrepareCommissioningReply {
        let reply = try await matterCall(
            path, MatterAPI.prepareMatterCommissioning.name, [], doing: "opening a commissioning session in structure \(Quoted(structure))")
        do { return try PrepareCommissioningReply(arguments: reply) } catch {
            throw ControlError.failure("PrepareMatterCommissioning answered something other than (s, x): \(error)")
        }
    }

    /// `Commission(s session, s payload, a{sv} options) → s payloadId`.
    func commission(
        at path: ObjectPath, session: String, code: String, network: String?, onNetwork: Bool, name: String?, room: String?, position: Int
    ) async throws -> String {
        typealias Option = MatterAPI.CommissionOption
        var entries: [DBusValue.DictEntry] = []
        if let network { entries.append(.init(key: .string(Option.network), value: .variant(.string(network)))) }
        if onNetwork { entries.append(.init(key: .string(Option.onNetwork), value: .variant(.bool(true)))) }
        if let name { entries.append(.init(key: .string(Option.name), value: .variant(.string(name)))) }
        if let room { entries.append(.init(key: .string(Option.room), value: .variant(.string(room)))) }
        let reply = try await matterCall(
            path, MatterAPI.commission.name, [.string(session), .string(code), .dictionary(key: .string, value: .variant, entries)],
            doing: "queuing code \(position)")
        guard case .string(let id)? = reply.first else { throw ControlError.failure("Commission did not answer a payload id") }
        return id
    }

    /// `CompleteMatterCommissioning(s session) → a(ssts)`.
    func completeMatterCommissioning(at path: ObjectPath, session: String) async throws -> [CommissioningOutcomeRow] {
        let reply = try await matterCall(path, MatterAPI.completeMatterCommissioning.name, [.string(session)], doing: "completing the session")
        do { return try Self.decode(reply, as: [CommissioningOutcomeRow].self) } catch {
            throw ControlError.failure("CompleteMatterCommissioning answered something other than a(ssts): \(error)")
        }
    }

    /// `CancelMatterCommissioning(s session)`.
    func cancelMatterCommissioning(at path: ObjectPath, session: String) async throws {
        _ = try await matterCall(path, MatterAPI.cancelMatterCommissioning.name, [.string(session)], doing: "cancelling the session")
    }

    /// `ShareMatterNode(t node, q windowSeconds) → (s manualCode, s qrCode)`.
    func shareMatterNode(at path: ObjectPath, node: UInt64, seconds: UInt16) async throws -> ShareNodeReply {
        let reply = try await matterCall(path, MatterAPI.shareMatterNode.name, [.uint64(node), .uint16(seconds)], doing: "sharing node \(node)")
        do { return try ShareNodeReply(arguments: reply) } catch {
            throw ControlError.failure("ShareMatterNode answered something other than (s, s): \(error)")
        }
    }

    /// `MatterNodes` of the structure at `path`.
    func matterNodes(at path: ObjectPath, structure: String) async throws -> [MatterNodeRow] {
        do {
            return try await structureObject(path).property(MatterAPI.Property.matterNodes.rawValue, as: [MatterNodeRow].self)
        } catch {
            throw ErrorMapping.controlError(error, doing: "reading the Matter nodes of structure \(Quoted(structure))")
        }
    }

    /// The `CommissioningProgress` signals of `session` on the structure at `path`, subscribed now.
    func commissioningProgress(at path: ObjectPath, session: String) async throws -> SignalStream {
        let rule = MatchRule(
            sender: TBRDBusAPI.busName, path: path, interface: MatterAPI.interface, member: MatterAPI.commissioningProgress.name,
            arguments: [0: session])
        do { return try await connection.signals(matching: rule) } catch {
            throw ErrorMapping.controlError(error, doing: "subscribing to tbrd's commissioning progress")
        }
    }

    /// Calls a Matter method of the structure at `path`; tbrd's `NotSupported` (no commissioner
    /// configured) is 69, like tbrd itself missing.
    func matterCall(_ path: ObjectPath, _ member: MemberName, _ arguments: [DBusValue], doing: String) async throws -> [DBusValue] {
        do {
            return try await structureObject(path).call(member, arguments, timeout: Self.matterCallTimeout)
        } catch let error as DBusError where error.name == TBRDBusAPI.Error.notSupported {
            throw ControlError.unavailable(error.message.isEmpty ? "tbrd has no Matter commissioner" : error.message)
        } catch {
            throw ErrorMapping.controlError(error, doing: doing)
        }
    }
}
