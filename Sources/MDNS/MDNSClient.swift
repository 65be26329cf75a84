internal import CAvahiClient
internal import Dispatch
public import TBRFoundation

/// A connection to avahi-daemon (libavahi-client over the system bus): browses and resolves DNS-SD
/// services as ``ServiceEventStream``s and publishes services.
///
/// ```swift
/// let mdns = MDNSClient(logger: logger)
/// try await mdns.connect(requireDaemon: true)     // or await mdns.start(): wait for the daemon
/// for await event in await mdns.browse(.meshcop) { … }
/// ```
///
/// **Threading.** The actor runs on a serial Dispatch queue of its own, which is also Avahi's main loop:
/// Avahi's watches (``DescriptorWatch``es) and timeouts (Dispatch timers) report to that queue (``DispatchPoll``), so every Avahi
/// call and callback happens there, one at a time, and no thread of Avahi's own exists. Callbacks copy
/// what Avahi lends them and post the work back to the actor, never re-entering Avahi from inside it.
/// Avahi's object constructors make blocking D-Bus calls to the daemon; they block this queue only.
///
/// **The daemon coming and going.** The client is created with `AVAHI_CLIENT_NO_FAIL`: while
/// avahi-daemon is not running it waits for it on the bus. When the daemon goes away every browser,
/// resolver and entry group goes with it; the client then connects again, and once the daemon is back
/// it browses again (services found again are updated only if they changed; those not found again
/// within `restartSettle` of its first "all for now" are removed, see
/// ``RemovalReason/notFoundAfterRestart``) and publishes again. When the system bus itself
/// cannot be reached, it tries again every `retryDelay`.
public actor MDNSClient {
    private nonisolated let executor: DispatchQueueExecutor
    /// The actor runs on its own queue, Avahi's main loop.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    let logger: Logger
    let retryDelay: Duration
    let restartSettle: Duration
    let poll: DispatchPoll

    var client: ClientHandle?
    /// The server state of the connected daemon (`AvahiServerState`), nil while it is not connected.
    var serverState: UInt32?
    var daemonWasLost = false
    var retryPending = false
    var unavailableLogged = false
    var isClosed = false
    var nextToken: UInt64 = 0
    var browses: [UInt64: Browse] = [:]
    var browserOwners: [UInt64: UInt64] = [:]
    var resolverOwners: [UInt64: (browse: UInt64, sighting: ServiceTable.Sighting)] = [:]
    var publications: [UInt64: Publication] = [:]
    var groupOwners: [UInt64: UInt64] = [:]

    /// A client that has not connected yet (no I/O until ``connect(requireDaemon:)`` or ``start()``).
    /// - Parameters:
    ///   - logger: where it logs (daemon coming and going at info, the rest at debug).
    ///   - retryDelay: how long it waits before trying the system bus again.
    ///   - restartSettle: after avahi-daemon restarted, how long after its browser's first "all for now"
    ///     a service must be back not to be reported gone (publishers on this host register again).
    public init(logger: Logger = .disabled, retryDelay: Duration = .seconds(5), restartSettle: Duration = .seconds(3)) {
        executor = DispatchQueueExecutor(label: "tbrd.mdns")
        poll = DispatchPoll(queue: executor.queue)
        self.logger = logger
        self.retryDelay = retryDelay
        self.restartSettle = restartSettle
    }

    /// Connects now.
    /// - Parameter requireDaemon: fail unless avahi-daemon is running now (a one-shot command); otherwise
    ///   wait for it.
    /// - Throws: ``MDNSError``: `daemonNotRunning` (with `requireDaemon`), `busUnreachable` when the
    ///   system bus cannot be reached.
    public func connect(requireDaemon: Bool) throws(MDNSError) {
        guard client == nil, !isClosed else { return }
        let handle = try openClient()
        if requireDaemon, handle.state == AVAHI_CLIENT_CONNECTING.rawValue {
            client = nil
            throw MDNSError(.daemonNotRunning, code: Int32(AVAHI_ERR_NO_DAEMON), MDNSError.daemonNotRunningMessage)
        }
    }

    /// Connects, waiting for avahi-daemon if it is not running, and trying the bus again every
    /// `retryDelay` while it cannot be reached. Never fails.
    public func start() {
        guard client == nil, !isClosed, !retryPending else { return }
        do { _ = try openClient() } catch {
            // Said once at info; the retries that follow at debug.
            let level: LogLevel = unavailableLogged ? .debug : .info
            unavailableLogged = true
            logger.log(level, "mDNS is unavailable for now; trying again", [("error", error.message), ("retry-seconds", "\(retryDelay.components.seconds)")])
            scheduleRetry()
        }
    }

    /// Whether avahi-daemon is connected now.
    public var isDaemonRunning: Bool { serverState != nil }

    /// Stops everything: streams end, services are withdrawn, the connection closes. Idempotent.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        for (_, browse) in browses { browse.continuation.finish() }
        browses.removeAll()
        browserOwners.removeAll()
        resolverOwners.removeAll()
        publications.removeAll()
        groupOwners.removeAll()
        client = nil
        serverState = nil
    }

    deinit {
        for (_, browse) in browses { browse.continuation.finish() }
        // The Avahi objects must be freed on the queue, where every Avahi call runs. Nothing else can
        // reach them once this actor goes away, so they are handed to the queue and released there.
        // (Not an `isolated deinit`: Swift 6.3.1's optimiser crashes on one in modules that use this.)
        let leftovers = QueueRelease((client, browses, publications))
        executor.queue.async { leftovers.release() }
    }

    // MARK: the connection

    /// Creates the Avahi client and makes it current.
    private func openClient() throws(MDNSError) -> ClientHandle {
        let context = CallbackContext(token: newToken(), client: self, queue: executor.queue)
        let handle = try ClientHandle.open(poll: poll, context: context)
        client = handle
        return handle
    }

    private func scheduleRetry() {
        retryPending = true
        after(retryDelay) { $0.retry() }
    }

    /// Runs `work` on the actor's queue after `delay` (a Dispatch timer; nothing runs if the client is gone).
    func after(_ delay: Duration, _ work: @escaping @Sendable (isolated MDNSClient) -> Void) {
        let nanoseconds = delay.components.seconds * 1_000_000_000 + delay.components.attoseconds / 1_000_000_000
        executor.queue.asyncAfter(deadline: .now() + .nanoseconds(Int(nanoseconds))) { [weak self] in
            self?.assumeIsolated { work($0) }
        }
    }

    private func retry() {
        retryPending = false
        start()
    }

    /// The client's state changed (posted by its callback).
    func clientStateChanged(token: UInt64, state: UInt32, failure: Int32) {
        guard let client, client.context.token == token, !isClosed else { return }
        switch state {
        case AVAHI_CLIENT_S_RUNNING.rawValue, AVAHI_CLIENT_S_REGISTERING.rawValue, AVAHI_CLIENT_S_COLLISION.rawValue:
            if serverState == nil {
                logger.info(
                    daemonWasLost ? "avahi-daemon is back; browsing and publishing again" : "connected to avahi-daemon",
                    [("host", client.hostNameFQDN ?? "")])
            }
            serverState = state
            unavailableLogged = false
            startBrowsers()
            if state == AVAHI_CLIENT_S_RUNNING.rawValue {
                registerPublications()
            } else {
                // The daemon is (re)registering its host name: entry groups are registered again once it runs.
                withdrawEntryGroups()
            }
        case AVAHI_CLIENT_CONNECTING.rawValue:
            logger.info("avahi-daemon is not running; waiting for it")
        default:
            let error = MDNSError.avahi(failure, "lost avahi-daemon")
            logger.info("lost the connection to avahi-daemon; connecting again", [("error", error.message)])
            daemonLost()
            start()
        }
    }

    /// The daemon (or the bus) went away: everything made with the client is gone.
    private func daemonLost() {
        daemonWasLost = true
        serverState = nil
        for id in browses.keys {
            browses[id]?.browser = nil
            browses[id]?.resolvers.removeAll()
            browses[id]?.table.daemonLost()
        }
        browserOwners.removeAll()
        resolverOwners.removeAll()
        withdrawEntryGroups()
        client = nil
    }

    func newToken() -> UInt64 {
        nextToken &+= 1
        return nextToken
    }

    func context(_ token: UInt64) -> CallbackContext { CallbackContext(token: token, client: self, queue: executor.queue) }

    /// Runs `work` on the actor's queue later (for stream terminations, which happen on any thread).
    nonisolated func later(_ work: @escaping @Sendable (isolated MDNSClient) -> Void) {
        executor.queue.async { [weak self] in self?.assumeIsolated { work($0) } }
    }
}
