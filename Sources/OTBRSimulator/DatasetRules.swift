import MeshCoP

/// The dataset decisions OpenThread and OTBR make, on TLV bytes.
enum DatasetRules {
    /// The Delay Timer `AttachAllNodesTo` gives a migration (`kDelayTimerMilliseconds` of ThreadHelper).
    static let migrationDelayMs: UInt32 = 300_000

    /// The TLVs of `bytes` if they decode (`otDatasetSetActiveTlvs` refuses the rest with InvalidArgs).
    static func decode(_ bytes: [UInt8]) -> OperationalDataset? { try? OperationalDataset(bytes: bytes) }

    /// `otDatasetIsValid(tlvs, active)`: decodes and is a complete, usable Active dataset.
    static func isValidActive(_ bytes: [UInt8]) -> Bool {
        OperationalDataset.validate(bytes: bytes, as: .active).isEmpty
    }

    /// Whether a node with this stored dataset can form or attach to a network on its own (the simulator
    /// has no other node to learn a partial dataset from).
    static func canAttach(_ bytes: [UInt8]?) -> Bool {
        guard let bytes, !bytes.isEmpty else { return false }
        return isValidActive(bytes)
    }

    /// The same TLVs regardless of order (`AreDatasetTlvsEqualToLocalDatasetTlvs`).
    static func sameTLVs(_ a: [UInt8], _ b: [UInt8]?) -> Bool {
        guard let b, let x = decode(a), let y = decode(b) else { return false }
        // A decoded dataset has each TLV type at most once.
        return Dictionary(uniqueKeysWithValues: x.tlvs.map { ($0.type, $0.value) })
            == Dictionary(uniqueKeysWithValues: y.tlvs.map { ($0.type, $0.value) })
    }

    /// `noNeedRejoin` of `RcpHost::Join`: same channel, network key and extended PAN ID.
    static func sameNetwork(_ a: [UInt8], _ b: [UInt8]?) -> Bool {
        guard let b, let x = decode(a), let y = decode(b) else { return false }
        return x.channel == y.channel && x.networkKey == y.networkKey && x.extendedPANID == y.extendedPANID
    }

    /// `otDatasetAffectsConnectivity` as the simulator models it: the channel, PAN ID, extended PAN ID,
    /// network key or mesh-local prefix differ from the stored dataset. Without a stored dataset nothing
    /// is affected (the dataset is simply stored).
    static func affectsConnectivity(_ new: [UInt8], current: [UInt8]?) -> Bool {
        guard let current, !current.isEmpty, let x = decode(new), let y = decode(current) else { return false }
        return x.channel != y.channel || x.panID != y.panID || x.extendedPANID != y.extendedPANID
            || x.networkKey != y.networkKey || x.meshLocalPrefix != y.meshLocalPrefix
    }

    /// `ThreadHelper::ProcessDatasetForMigration`: refuses a dataset that already has a Pending Timestamp
    /// or Delay Timer, or no room for them, and appends Pending Timestamp = now and Delay Timer.
    static func forMigration(_ bytes: [UInt8], delayMs: UInt32, wallTime: Double) -> [UInt8]? {
        guard let dataset = decode(bytes), !dataset.contains(.pendingTimestamp), !dataset.contains(.delayTimer),
            bytes.count + 10 + 6 <= OperationalDataset.maximumLength
        else { return nil }
        let seconds = UInt64(max(0, wallTime))
        let nanos = UInt32((wallTime - Double(seconds)) * 1e9)
        let stamp = Timestamp(unixSeconds: seconds, nanoseconds: nanos) ?? Timestamp(rawValue: 0)
        var w = bytes
        w += [TLVType.pendingTimestamp.rawValue, 8] + stamp.tlvValue
        w += [TLVType.delayTimer.rawValue, 4] + DelayTimer(milliseconds: delayMs).tlvValue
        return w
    }

    /// The active dataset a pending dataset becomes when its delay expires: without its Pending
    /// Timestamp and Delay Timer.
    static func activated(fromPending bytes: [UInt8]) -> [UInt8] {
        guard var dataset = decode(bytes) else { return bytes }
        dataset.remove(.pendingTimestamp)
        dataset.remove(.delayTimer)
        return dataset.encoded()
    }

    /// What `PendingDatasetTlvs` reads while the delay runs: `bytes` with its Delay Timer set to
    /// `remainingMs` (OpenThread reports the time left, not the value it was given).
    static func counting(_ bytes: [UInt8], remainingMs: UInt32) -> [UInt8] {
        guard var dataset = decode(bytes), dataset.contains(.delayTimer) else { return bytes }
        dataset.delayTimer = DelayTimer(milliseconds: remainingMs)
        return dataset.encoded()
    }
}

/// The leader's and the delay timer's timestamp rules (OpenThread `DatasetManager::HandleSet` in
/// dataset_manager_ftd.cpp and `PendingDatasetManager::HandleDelayTimer`; docs/architecture.md,
/// "Moving a structure onto one network").
extension DatasetRules {
    /// MGMT_ACTIVE_SET at the leader: taken only with an Active Timestamp newer than the active dataset's.
    static func leaderTakesActive(_ new: [UInt8], current: [UInt8]?) -> Bool {
        guard let x = decode(new), let stamp = x.activeTimestamp else { return false }
        guard let current, let y = decode(current), let now = y.activeTimestamp else { return true }
        return stamp > now
    }

    /// MGMT_PENDING_SET at the leader: it needs an Active Timestamp and a Pending Timestamp newer than the
    /// pending dataset's (if there is one); unless the network key changes, the Active Timestamp must also
    /// be newer than the active dataset's.
    static func leaderTakesPending(_ new: [UInt8], active: [UInt8]?, pending: [UInt8]?) -> Bool {
        guard let x = decode(new), let stamp = x.activeTimestamp, let pendingStamp = x.pendingTimestamp else { return false }
        if let pending, let p = decode(pending), let held = p.pendingTimestamp, pendingStamp <= held { return false }
        guard let active, let a = decode(active) else { return true }
        let keyChanges = x.networkKey != nil && x.networkKey != a.networkKey
        if !keyChanges, let now = a.activeTimestamp, stamp <= now { return false }
        return true
    }

    /// When the Delay Timer expires, the pending dataset replaces the active one only if its Active
    /// Timestamp is newer or its network key differs; either way the pending dataset is cleared.
    static func replacesActiveAtExpiry(_ pending: [UInt8], active: [UInt8]?) -> Bool {
        guard let p = decode(pending), let stamp = p.activeTimestamp else { return false }
        guard let active, let a = decode(active) else { return true }
        if let now = a.activeTimestamp, stamp > now { return true }
        if a.activeTimestamp == nil { return true }
        guard let key = p.networkKey else { return false }
        return key != a.networkKey
    }

    /// Two partitions hear each other only with the same network key, extended PAN ID, PAN ID and
    /// channel (the same credentials); then the one with the older Active Timestamp takes the newer
    /// dataset (MLE: a node that hears a newer Active Timestamp fetches that dataset).
    static func adoptsOnMeeting(_ other: [UInt8], own: [UInt8]?) -> Bool {
        guard let own, let x = decode(other), let y = decode(own), let theirs = x.activeTimestamp else { return false }
        guard x.networkKey == y.networkKey, x.extendedPANID == y.extendedPANID, x.panID == y.panID, x.channel == y.channel
        else { return false }
        guard let ours = y.activeTimestamp else { return true }
        return theirs > ours
    }
}
