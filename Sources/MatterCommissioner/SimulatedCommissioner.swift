public import MatterOnboarding
public import MeshCoP
public import TBRFoundation

/// A commissioner for the demo and the tests: no radio, no fabric, the same stages as a real one.
///
/// It knows a list of ``SimulatedDevice``s (none given: every payload is a device that is there and
/// accepts its passcode). Commissioning walks the stages with the device's delay between them: the
/// device must be there (else it fails at `commissioning` after the discovery time, like a device
/// nobody can find), credentials must have been handed over unless the device is already on the
/// network, the passcode must be the device's (else PASE fails), then ``CommissionerProgress/nodeAdded(_:)``
/// and ``CommissionerProgress/interviewed(vendorID:productID:)`` come one delay apart. Node IDs count up
/// from `firstNodeID`. Time comes from the injected clock. It forgets its nodes when it is recreated.
public actor SimulatedCommissioner: Commissioner {
    public nonisolated let backendName = "simulated"
    /// The devices it can find (empty: any payload is a device that is there).
    public nonisolated let devices: [SimulatedDevice]
    /// How long a stage takes unless the device says otherwise.
    public nonisolated let stepDelay: Duration
    let clock: any TBRClock
    let logger: Logger
    private var nextNodeID: UInt64
    private var credentials: ExtendedPANID?
    private var commissioned: [NodeID: SimulatedDevice] = [:]

    /// A simulated commissioner.
    /// - Parameters:
    ///   - devices: the devices it can find; empty: every payload is one that is there.
    ///   - stepDelay: the time a stage takes (default 100 ms).
    ///   - firstNodeID: the first node ID it assigns (tbrd passes one above those it recorded).
    public init(
        devices: [SimulatedDevice] = [], stepDelay: Duration = .milliseconds(100), firstNodeID: UInt64 = 1,
        clock: any TBRClock = SystemClock(), logger: Logger = .disabled
    ) {
        self.devices = devices
        self.stepDelay = stepDelay
        self.nextNodeID = max(1, firstNodeID)
        self.clock = clock
        self.logger = logger
    }

    public func run() async {
        // Nothing runs in the background; wait for the cancellation that ends the service.
        while !Task.isCancelled {
            do { try await clock.sleep(for: .seconds(3600)) } catch { return }
        }
    }

    public func checkAvailable(timeout: Duration) async throws(CommissionerError) {}

    public func handOverCredentials(_ dataset: OperationalDataset, timeout: Duration) async throws(CommissionerError) {
        try await pause(stepDelay)
        credentials = dataset.extendedPANID
    }

    public func commission(
        _ request: CommissioningRequest, timeout: Duration, progress: @escaping @Sendable (CommissionerProgress) -> Void
    ) async throws(CommissionerError) -> CommissionedNode {
        let payload = request.payload
        let device = find(payload)
        let step = device?.stepDelay ?? stepDelay
        let deadline = clock.now().advanced(by: timeout)
        guard let device, device.isPresent, !commissioned.values.contains(device) else {
            // A commissioned device has closed its commissioning window: nobody finds it any more.
            let why = device.map { commissioned.values.contains($0) } == true
                ? "it is already commissioned and its commissioning window is closed" : "the device is absent"
            try await pause(stepDelay * 3, before: deadline, timeout: timeout)
            throw CommissionerError(
                .refused, "no device with discriminator \(payload.discriminator) answered (simulated: \(why))", stage: .commissioning)
        }
        if !request.onNetwork, credentials == nil {
            throw CommissionerError(.refused, "no Thread credentials were handed over before commissioning (simulated)", stage: .commissioning)
        }
        try await pause(step, before: deadline, timeout: timeout)
        guard payload.passcode.rawValue == device.passcode else {
            throw CommissionerError(
                .refused, "PASE failed: the device did not accept the passcode (simulated: Failed to verify peer's MAC)",
                stage: .commissioning)
        }
        let node = NodeID(nextNodeID)
        nextNodeID += 1
        try await pause(step, before: deadline, timeout: timeout)
        progress(.nodeAdded(node))
        commissioned[node] = device
        try await pause(step, before: deadline, timeout: timeout)
        progress(.interviewed(vendorID: device.vendorID, productID: device.productID))
        logger.info("simulated commissioning finished", [("payload", request.reference), ("node", node.description)])
        return CommissionedNode(nodeID: node, vendorID: device.vendorID, productID: device.productID)
    }

    public func openCommissioningWindow(_ node: NodeID, seconds: Int, timeout: Duration) async throws(CommissionerError) -> SharingCodes {
        guard let device = commissioned[node] else {
            throw CommissionerError(
                .refused, "the simulated commissioner does not know node \(node) (it forgets its nodes when tbrd restarts)", serverCode: 5)
        }
        guard device.supportsMultiAdmin else {
            throw CommissionerError(.notSupported, "node \(node) has no administrator-commissioning cluster (simulated): it cannot be shared")
        }
        try await pause(stepDelay)
        var generator = SystemRandomNumberGenerator()
        let shared = SetupPayload(
            vendorID: VendorID(device.vendorID), productID: ProductID(device.productID), discoveryCapabilities: .onNetwork,
            discriminator: .long(UInt16.random(in: 0...Discriminator.longMaximum, using: &generator)),
            passcode: Passcode.random(using: &generator))
        do {
            return SharingCodes(manualCode: try shared.manualCode(), qrCode: try shared.qrCode())
        } catch {
            throw CommissionerError(.invalidResponse, "the simulated commissioner could not write the sharing codes: \(error)")
        }
    }

    public func removeNode(_ node: NodeID, timeout: Duration) async throws(CommissionerError) {
        guard commissioned.removeValue(forKey: node) != nil else {
            throw CommissionerError(.refused, "node \(node) does not exist (simulated)", serverCode: 5)
        }
    }

    public func writeNodeLabel(_ node: NodeID, _ label: String, timeout: Duration) async throws(CommissionerError) {
        guard commissioned[node] != nil else {
            throw CommissionerError(.refused, "node \(node) does not exist (simulated)", serverCode: 5)
        }
    }

    public func isReachable(_ node: NodeID, timeout: Duration) async throws(CommissionerError) -> Bool {
        guard commissioned[node] != nil else {
            throw CommissionerError(.refused, "node \(node) does not exist (simulated)", serverCode: 5)
        }
        return true
    }

    public func nodes(timeout: Duration) async throws(CommissionerError) -> [CommissionedNode] {
        commissioned.keys.sorted().map { CommissionedNode(nodeID: $0, vendorID: commissioned[$0]?.vendorID, productID: commissioned[$0]?.productID) }
    }

    /// The device a payload is for: the one with its discriminator (a manual code's short one matches
    /// the top 4 bits; one not yet commissioned first); with no devices configured, a device made from
    /// the payload.
    func find(_ payload: SetupPayload) -> SimulatedDevice? {
        guard !devices.isEmpty else {
            return SimulatedDevice(
                discriminator: payload.discriminator.value, passcode: payload.passcode.rawValue,
                vendorID: payload.vendorID?.rawValue ?? 0xFFF1, productID: payload.productID?.rawValue ?? 0x8000)
        }
        let matching = devices.filter { device in
            switch payload.discriminator {
            case .long(let d): device.discriminator == d
            case .short(let d): UInt8(device.discriminator >> 8) == d
            }
        }
        return matching.first { !commissioned.values.contains($0) } ?? matching.first
    }

    /// Waits `delay` (cut at `deadline`, then failing as a timeout).
    private func pause(_ delay: Duration, before deadline: ContinuousClock.Instant? = nil, timeout: Duration = .zero) async throws(CommissionerError) {
        let until = clock.now().advanced(by: delay)
        do {
            if let deadline, until > deadline {
                try await clock.sleep(until: deadline)
                throw CommissionerError(.timedOut, "the simulated commissioner did not finish within \(MatterServerCommissioner.seconds(timeout)) s")
            }
            try await clock.sleep(until: until)
        } catch let error as CommissionerError {
            throw error
        } catch {
            throw CommissionerError(.unavailable, "the simulated commissioning was cancelled: tbrd is stopping")
        }
    }
}
