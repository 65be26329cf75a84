/// Polls `condition` every 10 ms until it holds. A condition that throws counts as not holding yet
/// (a property read while an agent restarts, say); the last error is part of the failure.
///
/// Only for state that nothing announces; where an event proves the condition, a test waits on it with
/// ``eventually(_:timeout:wakingOn:until:)``. What is still polled, and why no event exists:
/// - what another program shows only when asked: `tbrctl discover`, `tbrctl list` and `mesh` output
///   (a fresh process per look), `nft list` rulesets, addresses and routes in a namespace, the answers of
///   otbr-agent's REST API (HTTP has no change notification);
/// - agent properties otbr-agent does not signal (shared/otbr/README.md: only `DeviceRole`,
///   `ActiveDatasetTlvs` and `Dhcp6PdState` send `PropertiesChanged`): `EphemeralKeyState`, `Nat64State`,
///   `Channel`, the NAT64 and DHCPv6-PD switches, so otbr-sim does not signal them either;
/// - in-process state with no notification of its own: a `FIFOGate`'s queue, `ReplySlots`' waiters, an
///   `Alarm`'s firings, a listener's accepted connections, files a daemon writes.
///
/// `timeout` only bounds how long a failing test waits: nothing here measures speed. It is stretched to
/// at least ``minimumTimeout`` so that a condition that holds a little later on a loaded machine (the
/// suite in parallel on two cores under `stress-ng`, issue 20) does not fail a test that is right.
/// - Throws: ``TestKitError`` naming `what` when the timeout passes.
public func eventually(
    _ what: String, timeout: Duration = .seconds(5), _ condition: () async throws -> Bool
) async throws {
    let timeout = max(timeout, minimumTimeout)
    let deadline = ContinuousClock.now.advanced(by: timeout)
    var lastError: (any Error)?
    while ContinuousClock.now < deadline {
        do {
            if try await condition() { return }
        } catch {
            lastError = error
        }
        try await Task.sleep(for: .milliseconds(10))
    }
    throw TestKitError(
        "timed out after \(timeout) waiting until \(what)" + (lastError.map { " (last error: \($0))" } ?? ""))
}

/// The least time ``eventually(_:timeout:_:)`` gives a condition: 30 s.
public let minimumTimeout: Duration = .seconds(30)
