import MeshCoP
import TBRDocuments
import TBRFoundation
import Testing

@testable import NetworkMigration

/// What a migration plans per router, which channels a change may use, and what `--auto` picks.
@Suite struct MigrationPlannerTests {
    static let target = try! OperationalDataset(bytes: try! Hex.decode(demoDataset))

    static func on(_ xpan: UInt64, channel: UInt16) -> OperationalDataset {
        var d = target
        d.extendedPANID = ExtendedPANID(xpan)
        d.channel = Channel(channel)
        return d
    }

    @Test func routersOnTheTargetStayOfflineOnesAreSkippedAndTheRestMoveWithTheirTransportsDelay() {
        let routers: [MigrationPlanner.Router] = [
            .init(id: "wpan1", transport: "dbus", online: true, network: Self.on(0x9A9A, channel: 25)),
            .init(id: "wpan0", transport: "dbus", online: true, network: Self.target),
            .init(id: "ba-1", transport: "rest", online: true, network: Self.on(0x9A9A, channel: 25)),
            .init(id: "wpan2", transport: "dbus", online: false, network: nil),
            .init(id: "wpan3", transport: "dbus", online: true, network: nil),
        ]
        let plan = MigrationPlanner.plan(kind: .merge, target: Self.target, routers: routers, delaySeconds: 60, now: 1000, detail: "")
        #expect(plan.steps.map(\.router) == ["ba-1", "wpan0", "wpan1", "wpan2", "wpan3"], "sorted by id")
        #expect(plan.steps.map(\.action) == [.move, .stay, .move, .skip, .skip])
        #expect(plan.steps[0].delayMs == 60_000 && plan.steps[2].delayMs == 300_000, "REST takes --delay, D-Bus always 300 s")
        #expect(plan.steps[2].activeTimestamp == 1 && plan.steps[2].pendingTimestamp == 1000 && plan.steps[2].fromChannel == 25)
        #expect(plan.dueAt == 1300 && plan.state == .planned && plan.targetChannel == 15)
        // A channel change moves only the routers on the structure's network.
        let moved = MigrationPlanner.onChannel(Self.target, 20)
        let change = MigrationPlanner.plan(kind: .channel, target: moved, routers: routers, delaySeconds: 60, now: 1000, detail: "")
        #expect(change.steps.map(\.action) == [.skip, .move, .skip, .skip, .skip])
        #expect(moved.activeTimestamp == Timestamp(seconds: 2) && moved.networkKey == Self.target.networkKey)
    }

    @Test func aChannelMustBeInTheMaskAndOnEveryRadioAndAutoPicksTheQuietestLowest() {
        #expect(MigrationPlanner.channelProblem(20, network: Self.target, supported: [("wpan0", 0x07FF_F800), ("ba-1", nil)]) == nil)
        #expect(MigrationPlanner.channelProblem(26, network: Self.target, supported: [("wpan0", 0x03FF_F800)])?.contains("wpan0") == true)
        #expect(MigrationPlanner.channelProblem(27, network: Self.target, supported: [])?.contains("11-26") == true)
        var narrow = Self.target
        narrow.channelMask = ChannelMask(entries: [ChannelMask.Entry(page: 0, channels: [15, 20])!])
        #expect(MigrationPlanner.channelProblem(25, network: narrow, supported: [])?.contains("channel mask") == true)
        let scans: [[(channel: UInt16, maxRSSI: Int)]] = [[(11, -60), (12, -90), (13, -90), (14, -70)], [(11, -99), (12, -80), (13, -95), (14, -99)]]
        #expect(MigrationPlanner.quietest(scans, allowed: { _ in true })! == (13, -90))
        #expect(MigrationPlanner.quietest(scans, allowed: { $0 != 13 })! == (12, -80))
        #expect(MigrationPlanner.quietest([[(11, -90)], [(12, -90)]], allowed: { _ in true }) == nil, "a channel every scan read")
    }

    @Test func aRouterNotOnTheTargetByItsDeadlineIsReportedWhereItIs() {
        let from = Self.on(0x9A9A, channel: 25)
        let routers = [MigrationPlanner.Router(id: "wpan1", transport: "dbus", online: true, network: from)]
        let step = MigrationPlanner.plan(kind: .merge, target: Self.target, routers: routers, delaySeconds: 300, now: 1000, detail: "").steps[0]
        func detail(online: Bool = true, active: OperationalDataset?, pending: OperationalDataset? = nil) -> String {
            let v = MigrationPlanner.verdict(step, online: online, active: active, pending: pending)
            #expect(v.outcome == .failed)
            return v.detail
        }
        #expect(detail(online: false, active: nil).contains("offline when the delay ended"))
        #expect(detail(active: nil).contains("on no network"))
        #expect(detail(active: from).contains("still on 0000000000009a9a"))
        var theirs = Self.target
        theirs.pendingTimestamp = Timestamp(seconds: 2000)
        #expect(detail(active: from, pending: theirs).contains("another pending dataset, Pending Timestamp 2000, replaced tbrd's"))
        var ours = Self.target
        ours.pendingTimestamp = Timestamp(seconds: 1000)
        #expect(detail(active: from, pending: ours).contains("still there"))
        #expect(detail(active: Self.on(0x7777, channel: 11)).contains("on neither network: now on 0000000000007777 channel 11"))
    }
}
