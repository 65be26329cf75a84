@testable import MatterCommissioning
import DeviceModel
import MatterCommissioner
import MatterOnboarding
import MeshCoP
import TBRTestKit
import Testing

/// The commissioning sessions' machine on a manual clock: exclusivity per structure, expiry, cancel with
/// a payload in flight, batch order across sessions, the network choice rules, and the stages. No I/O.
struct CommissioningHarness {
    let clock = ManualClock()
    var machine = CommissioningSessionMachine(sessionLifetime: .seconds(600), backend: "simulated")
    var now: ContinuousClock.Instant { clock.now() }
    var wall: WallTime { WallTime(secondsSinceEpoch: clock.wallTime()) }

    static let netA = ExtendedPANID(0x1111_1111_2222_2222)
    static let netB = ExtendedPANID(0x3333_3333_4444_4444)

    static func view(
        _ structure: StructureID = "1", name: String = "Home", routers: [CommissioningStructureView.Router]? = nil,
        default defaultNetwork: ExtendedPANID? = nil, rooms: [String] = []
    ) -> CommissioningStructureView {
        CommissioningStructureView(
            structure: structure, name: name,
            routers: routers ?? [.init(id: "wpan0", isOnline: true, isAttached: true, network: netA)], defaultNetwork: defaultNetwork,
            rooms: rooms)
    }

    /// A valid QR code for a BLE device with `discriminator` and `passcode`.
    static func code(_ discriminator: UInt16, passcode: UInt32 = 20_202_021, discovery: DiscoveryCapabilities = .ble) -> String {
        let payload = SetupPayload(
            vendorID: VendorID(0xFFF1), productID: ProductID(0x8000), discoveryCapabilities: discovery,
            discriminator: .long(discriminator), passcode: try! Passcode(passcode))
        return try! payload.qrCode()
    }

    static func dataset(_ xpan: ExtendedPANID = netA) -> OperationalDataset {
        try! OperationalDataset.random(name: NetworkName("Home"), extendedPANID: xpan)
    }

    mutating func advance(_ d: Duration) { clock.advance(by: d) }

    mutating func open(_ view: CommissioningStructureView = view(), id: String = "s1") throws -> CommissioningSessionID {
        let session = CommissioningSessionID(rawValue: id)
        _ = try machine.prepare(view, id: session, now: now, wall: wall)
        return session
    }

    mutating func queue(_ session: CommissioningSessionID, _ code: String, _ options: CommissioningOptions = .init(), view: CommissioningStructureView = view())
        throws -> (String, [CommissioningDirective])
    {
        try machine.commission(session, in: view, text: code, options: options, now: now, wall: wall)
    }

    /// Runs the payload in flight to a node: dataset read, credentials, the commissioner's stages, record.
    mutating func succeed(_ ref: PayloadRef, node: UInt64, xpan: ExtendedPANID = netA) -> [CommissioningDirective] {
        var d = machine.datasetRead(ref, .success(Self.dataset(xpan)), now: now, wall: wall)
        d += machine.credentialsHandedOver(ref, error: nil, now: now, wall: wall)
        d += machine.progressed(ref, .nodeAdded(NodeID(node)), now: now, wall: wall)
        d += machine.progressed(ref, .interviewed(vendorID: 0xFFF1, productID: 0x8000), now: now, wall: wall)
        d += machine.commissioned(ref, .success(CommissionedNode(nodeID: NodeID(node), vendorID: 0xFFF1, productID: 0x8000)), now: now, wall: wall)
        d += machine.recorded(ref, error: nil, now: now, wall: wall)
        return d
    }
}

extension Array where Element == CommissioningDirective {
    /// (payload, stage) of every publish, in order.
    var stages: [(String, CommissioningStage)] { compactMap { if case .publish(let p) = $0 { (p.payloadID, p.stage) } else { nil } } }
    var progress: [CommissioningProgress] { compactMap { if case .publish(let p) = $0 { p } else { nil } } }
    var commissions: [PayloadRef] { compactMap { if case .commission(let r, _) = $0 { r } else { nil } } }
    var datasetReads: [PayloadRef] { compactMap { if case .readDataset(let r, _, _) = $0 { r } else { nil } } }
    var answers: [(CompletionWaiter, [CommissioningOutcome])] { compactMap { if case .answer(let w, let o) = $0 { (w, o) } else { nil } } }
    var timer: CommissioningDirective? { last { if case .wake = $0 { true } else { $0 == .cancelWake } } }
}

@Suite struct CommissioningMachineTests {
    typealias H = CommissioningHarness

    @Test func aNameAndARoomAreCheckedWhenQueuedRecordedAndTheNameWrittenBeforeComplete() throws {
        var h = H()
        let view = H.view(rooms: ["Kitchen"])
        let s = try h.open(view)
        // A room the structure lacks, and a name longer than NodeLabel holds, are refused: nothing is queued.
        #expect(throws: HomeError(.invalidArgument, "structure \"Home\" has no room \"Attic\" (its rooms: \"Kitchen\")")) {
            try h.queue(s, H.code(100), .init(room: "Attic"), view: view)
        }
        do {
            _ = try h.queue(s, H.code(100), .init(name: String(repeating: "x", count: 33)), view: view)
            Issue.record("a 33-byte name was queued")
        } catch let error as HomeError {
            #expect(error.code == .invalidArgument && error.message.contains("longer than 32 bytes"), "\(error)")
        }
        let (id, _) = try h.queue(s, H.code(100), .init(name: "Lamp", room: "Kitchen"), view: view)
        #expect(id == "1", "the refused ones took no id")
        let ref = PayloadRef(session: s, payloadID: "1")
        var d = h.machine.datasetRead(ref, .success(H.dataset()), now: h.now, wall: h.wall)
        d += h.machine.credentialsHandedOver(ref, error: nil, now: h.now, wall: h.wall)
        d += h.machine.commissioned(ref, .success(CommissionedNode(nodeID: NodeID(7), vendorID: 1, productID: 2)), now: h.now, wall: h.wall)
        let record = try #require(d.compactMap { if case .recordNode(_, let n) = $0 { n } else { nil } }.first)
        #expect(record.name == "Lamp" && record.room == "Kitchen")
        // Recorded: the name goes to the device before the payload completes.
        let recorded = h.machine.recorded(ref, error: nil, now: h.now, wall: h.wall)
        #expect(recorded == [.writeLabel(ref, NodeID(7), label: "Lamp")])
        // The device refuses the label: the node completes with its recorded name, and says so.
        let done = h.machine.labelWritten(ref, error: "node 7 refused the node label: status 0x88", now: h.now, wall: h.wall)
        let complete = try #require(done.progress.first { $0.stage == .complete })
        #expect(complete.name == "Lamp" && complete.room == "Kitchen")
        #expect(complete.warning == "the name is recorded but the device did not take it as its NodeLabel: node 7 refused the node label: status 0x88")
    }

    @Test func withoutANameTheNodeCompletesOnceRecorded() throws {
        var h = H()
        let s = try h.open()
        _ = try h.queue(s, H.code(100))
        let done = h.succeed(PayloadRef(session: s, payloadID: "1"), node: 7)
        #expect(!done.contains { if case .writeLabel = $0 { true } else { false } })
        let complete = try #require(done.progress.first { $0.stage == .complete })
        #expect(complete.name == nil && complete.room == nil && complete.warning == nil)
    }

    @Test func oneSessionPerStructureAndWhatAPrepareNeeds() throws {
        var h = H()
        let (grant, d) = try h.machine.prepare(H.view(), id: "s1", now: h.now, wall: h.wall)
        #expect(grant.expiresAt == h.wall.advanced(by: .seconds(600)))
        #expect(d == [.wake(at: h.now.advanced(by: .seconds(600)))])
        #expect(throws: HomeError(.busy, "a commissioning session (s1) is already open in structure \"Home\"; complete or cancel it first")) {
            try h.machine.prepare(H.view(), id: "s2", now: h.now, wall: h.wall)
        }
        // Another structure has its own session.
        _ = try h.open(H.view("2", name: "Away"), id: "s3")
        // No router online, none attached, none at all.
        let offline = H.view("3", routers: [.init(id: "wpan5", isOnline: false, isAttached: false, network: H.netA)])
        #expect(throws: HomeError.self) { try h.machine.prepare(offline, id: "s4", now: h.now, wall: h.wall) }
        do { _ = try h.machine.prepare(offline, id: "s4", now: h.now, wall: h.wall) } catch { #expect(error.code == .unavailable) }
        let detached = H.view("3", routers: [.init(id: "wpan5", isOnline: true, isAttached: false, network: nil)])
        do { _ = try h.machine.prepare(detached, id: "s4", now: h.now, wall: h.wall) } catch { #expect(error.code == .invalidState) }
        do { _ = try h.machine.prepare(H.view("3", routers: []), id: "s4", now: h.now, wall: h.wall) } catch {
            #expect(error.message == "structure \"Home\" has no border router; add one with AddBorderRouter")
        }
        // Sessions of another structure are not found here.
        #expect(throws: HomeError.self) { try h.queue("s3", H.code(1)) }
    }

    @Test func aBatchRunsInOrderOneAtATimeThroughEveryStage() throws {
        var h = H()
        let s = try h.open()
        let (first, d1) = try h.queue(s, H.code(100))
        #expect(first == "1")
        #expect(d1.stages.map(\.1) == [.queued, .validated])
        #expect(d1.datasetReads == [PayloadRef(session: s, payloadID: "1")])
        let (second, d2) = try h.queue(s, H.code(200))
        let (third, d3) = try h.queue(s, H.code(300))
        #expect(second == "2" && third == "3")
        #expect(d2.stages.map(\.1) == [.queued] && d3.stages.map(\.1) == [.queued], "one at a time")
        let r1 = PayloadRef(session: s, payloadID: "1")
        let done1 = h.succeed(r1, node: 7)
        #expect(done1.stages.map(\.1) == [.networkSelected, .credentialsHandedOver, .commissioning, .nodeAdded, .interviewed, .complete, .validated])
        #expect(done1.stages.last?.0 == "2", "the second starts when the first is recorded")
        let complete = try #require(done1.progress.first { $0.stage == .complete })
        #expect(complete.nodeID == NodeID(7) && complete.vendorID == 0xFFF1 && complete.productID == 0x8000 && complete.extPanID == H.netA)
        #expect(done1.progress.first { $0.stage == .networkSelected }?.extPanID == H.netA)
        #expect(done1.progress.first { $0.stage == .validated }?.extPanID == nil)
        // The record holds what was learnt, never the code.
        let record = try #require(done1.compactMap { if case .recordNode(_, let n) = $0 { n } else { nil } }.first)
        #expect(record == RecordedMatterNode(
            nodeID: NodeID(7), structure: "1", vendorID: 0xFFF1, productID: 0x8000, commissionedAt: h.wall, session: s, payloadID: "1",
            extPanID: H.netA, backend: "simulated"))
        // The second fails at commissioning (a wrong passcode); the third still runs.
        let r2 = PayloadRef(session: s, payloadID: "2")
        var d = h.machine.datasetRead(r2, .success(H.dataset()), now: h.now, wall: h.wall)
        d += h.machine.credentialsHandedOver(r2, error: nil, now: h.now, wall: h.wall)
        d += h.machine.commissioned(r2, .failure(CommissionerError(.refused, "PASE failed")), now: h.now, wall: h.wall)
        let failed = try #require(d.progress.first { $0.stage == .failed })
        #expect(failed.failedStage == .commissioning && failed.error == "PASE failed" && failed.payloadID == "2")
        #expect(d.stages.last! == ("3", .validated))
        // complete waits for the third, then answers in payload order.
        #expect(try h.machine.complete(s, in: "1", structureName: "Home", waiter: 1).answers.isEmpty)
        #expect(throws: HomeError.self) { try h.queue(s, H.code(400)) }
        let end = h.succeed(PayloadRef(session: s, payloadID: "3"), node: 9)
        let answer = try #require(end.answers.first)
        #expect(answer.0 == 1)
        #expect(answer.1.map(\.payloadID) == ["1", "2", "3"])
        #expect(answer.1.map(\.isComplete) == [true, false, true])
        #expect(answer.1[1].failedStage == .commissioning)
        #expect(end.contains(.sessionEnded(s, "1", reason: "completed")))
        #expect(end.timer == nil || end.timer == .cancelWake)
        #expect(h.machine.sessions.isEmpty)
        // The structure is free again.
        _ = try h.open(id: "s9")
    }

    @Test func payloadsOfDifferentStructuresShareOneQueueInTheOrderTheyCame() throws {
        var h = H()
        let home = try h.open()
        let away = try h.open(H.view("2", name: "Away"), id: "s2")
        _ = try h.queue(home, H.code(1))
        let (_, awayQueued) = try h.queue(away, H.code(2), view: H.view("2", name: "Away"))
        _ = try h.queue(home, H.code(3))
        #expect(awayQueued.datasetReads.isEmpty)
        let next = h.succeed(PayloadRef(session: home, payloadID: "1"), node: 1)
        #expect(next.datasetReads == [PayloadRef(session: away, payloadID: "1")], "Away's payload came before Home's second")
    }

    @Test func anInvalidPayloadIsRefusedAndNothingIsQueued() throws {
        var h = H()
        let s = try h.open()
        do {
            _ = try h.queue(s, "MT:NOT-A-CODE")
            Issue.record("an invalid code was queued")
        } catch let error as HomeError {
            #expect(error.code == .invalidArgument && error.message.hasPrefix("the onboarding payload is not valid: "))
        }
        // A manual code with a bad check digit, and one whose passcode breaks the rules.
        #expect(throws: HomeError.self) { try h.queue(s, "34970112331") }
        #expect(h.machine.sessions[s]?.payloads.isEmpty == true)
        // The message never holds the passcode.
        do { _ = try h.queue(s, "34970112331") } catch let error as HomeError { #expect(!error.message.contains("20202021")) }
    }

    @Test func theNetworkChoiceRules() throws {
        typealias R = CommissioningStructureView.Router
        let two = [R(id: "wpan0", isOnline: true, isAttached: true, network: H.netA), R(id: "wpan1", isOnline: false, isAttached: false, network: H.netB)]
        // The only network.
        #expect(try CommissioningSessionMachine.chooseNetwork(nil, in: H.view()) == H.netA)
        // Two networks and no default: ambiguous, naming both.
        #expect(throws: HomeError(.invalidArgument, "structure \"Home\" has several Thread networks (1111111122222222, 3333333344444444) and no default one: choose one with the network option, or set its DefaultThreadNetworkId")) {
            try CommissioningSessionMachine.chooseNetwork(nil, in: H.view(routers: two))
        }
        // The default decides; the explicit option wins over it.
        #expect(try CommissioningSessionMachine.chooseNetwork(nil, in: H.view(routers: two, default: H.netB)) == H.netB)
        #expect(try CommissioningSessionMachine.chooseNetwork(H.netA, in: H.view(routers: two, default: H.netB)) == H.netA)
        // Unknown networks, explicit or default, are refused naming the candidates.
        let other = ExtendedPANID(0xDEAD_BEEF_0000_0001)
        #expect(throws: HomeError(.invalidArgument, "no border router of structure \"Home\" is on Thread network deadbeef00000001 (its networks: 1111111122222222, 3333333344444444)")) {
            try CommissioningSessionMachine.chooseNetwork(other, in: H.view(routers: two))
        }
        do {
            _ = try CommissioningSessionMachine.chooseNetwork(nil, in: H.view(default: other))
            Issue.record("an unknown default was accepted")
        } catch {
            #expect(error.code == .invalidArgument && error.message.contains("(its networks: 1111111122222222)"))
        }
        // Refused at Commission: nothing queued.
        var h = H()
        let s = try h.open(H.view(routers: two))
        #expect(throws: HomeError.self) { try h.queue(s, H.code(5), view: H.view(routers: two)) }
        let (_, d) = try h.queue(s, H.code(5), .init(network: H.netB), view: H.view(routers: two))
        #expect(d.contains(.readDataset(PayloadRef(session: s, payloadID: "1"), network: H.netB, structure: "1")))
        // The dataset is checked when read: a router that moved to another network fails the payload.
        let moved = h.machine.datasetRead(PayloadRef(session: s, payloadID: "1"), .success(H.dataset(H.netA)), now: h.now, wall: h.wall)
        #expect(moved.progress.last?.failedStage == .networkSelected)
        // No router of the network online.
        let (_, d2) = try h.queue(s, H.code(6), .init(network: H.netB), view: H.view(routers: two))
        let ref2 = try #require(d2.datasetReads.first)
        let offline = h.machine.datasetRead(ref2, .failure(HomeError(.unavailable, "no border router of Thread network 3333333344444444 is online")), now: h.now, wall: h.wall)
        #expect(offline.progress.last?.error == "no border router of Thread network 3333333344444444 is online")
    }

    @Test func onNetworkSkipsTheCredentialsAndABLEOnlyRuleAtValidation() throws {
        var h = H()
        let s = try h.open()
        let (_, d) = try h.queue(s, H.code(10), .init(onNetwork: true))
        #expect(d.stages.map(\.1) == [.queued, .validated, .networkSelected, .commissioning])
        #expect(d.datasetReads.isEmpty)
        guard case .commission(_, let request)? = d.first(where: { if case .commission = $0 { true } else { false } }) else {
            Issue.record("no commission directive")
            return
        }
        #expect(request.onNetwork && "\(request)".contains("<redacted>") && !"\(request)".contains(request.code))
        let ref = PayloadRef(session: s, payloadID: "1")
        let end = h.machine.commissioned(ref, .success(CommissionedNode(nodeID: NodeID(3), vendorID: nil, productID: nil)), now: h.now, wall: h.wall)
        #expect(end.stages.map(\.1) == [.nodeAdded, .interviewed])
        let record = try #require(end.compactMap { if case .recordNode(_, let n) = $0 { n } else { nil } }.first)
        #expect(record.extPanID == nil && record.vendorID == 0)
        _ = h.machine.recorded(ref, error: nil, now: h.now, wall: h.wall)
        // A QR code that offers only on-network discovery cannot get credentials: refused, nothing queued.
        do {
            _ = try h.queue(s, H.code(11, discovery: .onNetwork))
            Issue.record("a device that cannot be found over BLE was queued for credentials")
        } catch let error as HomeError {
            #expect(error.code == .invalidArgument && error.message.contains("onNetwork option"))
        }
        // With the option it is queued (as the next payload: the refused one took no id).
        let (id, _) = try h.queue(s, H.code(11, discovery: .onNetwork), CommissioningOptions(onNetwork: true))
        #expect(id == "2")
    }

    @Test func cancelFailsWhatIsQueuedAndLetsTheOneInFlightFinish() throws {
        var h = H()
        let s = try h.open()
        _ = try h.queue(s, H.code(1))
        _ = try h.queue(s, H.code(2))
        _ = try h.queue(s, H.code(3))
        let ref = PayloadRef(session: s, payloadID: "1")
        _ = h.machine.datasetRead(ref, .success(H.dataset()), now: h.now, wall: h.wall)
        _ = h.machine.credentialsHandedOver(ref, error: nil, now: h.now, wall: h.wall)
        let cancelled = try h.machine.cancel(s, in: "1", structureName: "Home", now: h.now, wall: h.wall)
        #expect(cancelled.progress.map(\.payloadID) == ["2", "3"])
        #expect(cancelled.progress.allSatisfy { $0.stage == .failed && $0.failedStage == .queued && $0.error == "the session was cancelled before its turn" })
        #expect(!cancelled.contains { if case .sessionEnded = $0 { true } else { false } }, "it ends when the one in flight does")
        #expect(cancelled.timer == .cancelWake)
        // The structure stays busy until then; the session takes nothing more; a second cancel changes nothing.
        #expect(throws: HomeError.self) { try h.open(id: "s2") }
        #expect(throws: HomeError.self) { try h.queue(s, H.code(4)) }
        #expect(try h.machine.cancel(s, in: "1", structureName: "Home", now: h.now, wall: h.wall).progress.isEmpty)
        // The one in flight finishes and is recorded; then the session ends.
        var end = h.machine.progressed(ref, .nodeAdded(NodeID(5)), now: h.now, wall: h.wall)
        end += h.machine.commissioned(ref, .success(CommissionedNode(nodeID: NodeID(5), vendorID: 1, productID: 2)), now: h.now, wall: h.wall)
        end += h.machine.recorded(ref, error: nil, now: h.now, wall: h.wall)
        #expect(end.stages.map(\.1) == [.nodeAdded, .interviewed, .complete])
        #expect(end.contains(.sessionEnded(s, "1", reason: "cancelled")))
        #expect(end.datasetReads.isEmpty, "nothing of the cancelled session starts")
        _ = try h.open(id: "s2")
    }

    @Test func anExpiredSessionEndsByItself() throws {
        var h = H()
        let s = try h.open()
        #expect(h.machine.timerFired(now: h.now, wall: h.wall).timer == .wake(at: h.now.advanced(by: .seconds(600))))
        // Nothing queued: at expiry it simply ends.
        h.advance(.seconds(600))
        let d = h.machine.timerFired(now: h.now, wall: h.wall)
        #expect(d.contains(.sessionEnded(s, "1", reason: "expired")))
        #expect(d.timer == .cancelWake)
        #expect(throws: HomeError.self) { try h.queue(s, H.code(1)) }
        // With payloads queued or in flight the session is not abandoned: it does not expire (a long
        // batch is not cut short); once they have all ended it expires at once if nobody completed it.
        let s2 = try h.open(id: "s2")
        _ = try h.queue(s2, H.code(1))
        _ = try h.queue(s2, H.code(2))
        h.advance(.seconds(601))
        let busy = h.machine.timerFired(now: h.now, wall: h.wall)
        #expect(busy.progress.isEmpty && !busy.contains(.sessionEnded(s2, "1", reason: "expired")))
        #expect(busy.timer == .cancelWake)
        let first = h.machine.datasetRead(PayloadRef(session: s2, payloadID: "1"), .failure(HomeError(.unavailable, "no router")), now: h.now, wall: h.wall)
        #expect(first.progress.contains { $0.payloadID == "2" && $0.stage == .validated }, "the next payload still runs")
        #expect(first.timer == .cancelWake)
        let second = h.machine.datasetRead(PayloadRef(session: s2, payloadID: "2"), .failure(HomeError(.unavailable, "no router")), now: h.now, wall: h.wall)
        #expect(second.progress.last?.failedStage == .networkSelected)
        let due = try #require(second.timer)
        guard case .wake(let at) = due, at <= h.now else { Issue.record("an idle, overdue session is not woken at once: \(due)"); return }
        let ended = h.machine.timerFired(now: h.now, wall: h.wall)
        #expect(ended.contains(.sessionEnded(s2, "1", reason: "expired")))
        #expect(ended.progress.isEmpty, "both payloads had ended already")
    }

    @Test func resultsForAPayloadNotInFlightAreIgnored() throws {
        var h = H()
        let s = try h.open()
        _ = try h.queue(s, H.code(1))
        let stale = PayloadRef(session: s, payloadID: "2")
        #expect(h.machine.datasetRead(stale, .success(H.dataset()), now: h.now, wall: h.wall).isEmpty)
        #expect(h.machine.recorded(stale, error: nil, now: h.now, wall: h.wall).isEmpty)
        // An interview reported before the node is ignored; a node reported twice is reported once.
        let ref = PayloadRef(session: s, payloadID: "1")
        #expect(h.machine.progressed(ref, .interviewed(vendorID: 1, productID: 1), now: h.now, wall: h.wall).isEmpty)
        #expect(h.machine.progressed(ref, .nodeAdded(NodeID(1)), now: h.now, wall: h.wall).count == 1)
        #expect(h.machine.progressed(ref, .nodeAdded(NodeID(1)), now: h.now, wall: h.wall).isEmpty)
        // A failure after the node was added fails at the interview.
        let d = h.machine.commissioned(ref, .failure(CommissionerError(.timedOut, "no answer")), now: h.now, wall: h.wall)
        #expect(d.progress.last?.failedStage == .interviewed)
        // A node that cannot be recorded fails at complete.
        let (_, d2) = try h.queue(s, H.code(2))
        let ref2 = try #require(d2.datasetReads.first)
        _ = h.machine.datasetRead(ref2, .success(H.dataset()), now: h.now, wall: h.wall)
        _ = h.machine.credentialsHandedOver(ref2, error: nil, now: h.now, wall: h.wall)
        _ = h.machine.commissioned(ref2, .success(CommissionedNode(nodeID: NodeID(2), vendorID: 1, productID: 1)), now: h.now, wall: h.wall)
        let notRecorded = h.machine.recorded(ref2, error: "disk full", now: h.now, wall: h.wall)
        #expect(notRecorded.progress.last?.failedStage == .complete)
        #expect(notRecorded.progress.last?.error == "node 2 was commissioned but could not be recorded: disk full")
    }
}
