package import DeviceModel
package import MeshCoP

/// What `joinNetwork` does, decided from the request and the router's state before anything is sent
/// (ARCHITECTURE "The trait model"). Pure.
package enum JoinPlan: Hashable, Sendable {
    /// The router is already on that network: success, nothing changes.
    case alreadyJoined
    /// The whole mesh moves through `AttachAllNodesTo` (a pending dataset with the agent's delay).
    case migrateWholeNetwork
    /// This router joins through `Join` (after `SetThreadEnabled(true)` if the agent says it must).
    case join

    /// Why a dataset is refused before the router is asked; nothing is changed.
    package struct Refusal: Error, Hashable, Sendable {
        var message: String
    }

    /// Checks that `tlvs` are a complete, valid active dataset otbr-agent can take: at most 254 bytes,
    /// well-formed TLVs, every TLV an active dataset needs, no Pending Timestamp or Delay Timer.
    package static func validate(_ tlvs: [UInt8]) -> Result<OperationalDataset, Refusal> {
        guard tlvs.count <= OperationalDataset.maximumLength else {
            return .failure(Refusal(message: "the dataset is \(tlvs.count) bytes; otbr-agent takes at most \(OperationalDataset.maximumLength)"))
        }
        let problems = OperationalDataset.validate(bytes: tlvs, as: .active)
        guard problems.isEmpty else {
            let list = problems.map(\.description).joined(separator: "; ")
            return .failure(Refusal(message: "the dataset is not a valid active operational dataset: \(list)"))
        }
        let dataset: OperationalDataset
        do { dataset = try OperationalDataset(bytes: tlvs) } catch {
            return .failure(Refusal(message: "the dataset does not decode: \(error)"))
        }
        guard !dataset.contains(.pendingTimestamp), !dataset.contains(.delayTimer) else {
            return .failure(Refusal(message: "an active dataset cannot carry a Pending Timestamp or a Delay Timer"))
        }
        return .success(dataset)
    }

    /// The plan for `requested` on a router that is attached or not, with active dataset `current`.
    package static func decide(
        requested: OperationalDataset, scope: ThreadNetworkManagementTrait.JoinScope, attached: Bool,
        current: OperationalDataset?
    ) -> JoinPlan {
        guard attached, let current else { return .join }
        if sameNetwork(requested, current) { return .alreadyJoined }
        return scope == .wholeNetwork ? .migrateWholeNetwork : .join
    }

    /// Whether two datasets describe the same running network: the same extended PAN ID, network key,
    /// PAN ID, channel, mesh-local prefix and network name. (Other differences, such as a new channel,
    /// are a change of the network and go through a migration.)
    package static func sameNetwork(_ a: OperationalDataset, _ b: OperationalDataset) -> Bool {
        a.extendedPANID == b.extendedPANID && a.networkKey == b.networkKey && a.panID == b.panID
            && a.channel == b.channel && a.meshLocalPrefix == b.meshLocalPrefix && a.networkName == b.networkName
    }
}
