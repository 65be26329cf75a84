/// The internet-access policy's timing, from the service's configuration (`policy…` fields of
/// `BorderRouterServiceConfiguration`).
package struct PolicyTiming: Sendable {
    /// How often routers of managed structures (and the firewall) are read back for drift.
    package var checkInterval: Duration
    /// The first retry's delay after a failure (doubling from there) …
    package var retryDelay: Duration
    /// … up to this.
    package var retryLimit: Duration
    /// How long NAT64 may take to show the new state in `Nat64State`.
    package var nat64Timeout: Duration

    package init(checkInterval: Duration, retryDelay: Duration, retryLimit: Duration, nat64Timeout: Duration) {
        self.checkInterval = checkInterval
        self.retryDelay = retryDelay
        self.retryLimit = retryLimit
        self.nat64Timeout = nat64Timeout
    }
}
