import Testing

@testable import HTTPServer

/// The server's two decisions about its connections, driven with instants of the test's own: deadlines
/// for a request's head and body, and the budget for strangers.
@Suite struct ConnectionTableTests {
    let t0 = ContinuousClock.now

    func table(strangers: Int = 3) -> ConnectionTable {
        ConnectionTable(strangerLimit: strangers, headDeadline: .seconds(10), bodyDeadline: .seconds(30))
    }

    @Test func aHeadIsDueTenSecondsAfterTheConnectionOpensAndABodyThirtyAfterItsHead() {
        var table = table()
        let head = table.open(fd: 10, at: t0).id
        let body = table.open(fd: 11, at: t0).id
        table.enter(.awaitingBody, body, at: t0 + .seconds(5))
        #expect(table.expired(at: t0 + .seconds(9)) == [])
        #expect(table.expired(at: t0 + .seconds(10)) == [10], "the head's deadline counts from the opening, whatever was sent since")
        #expect(table.expired(at: t0 + .seconds(34)) == [])
        #expect(table.expired(at: t0 + .seconds(35)) == [11])
        #expect(table.expired(at: t0 + .seconds(100)) == [], "each is shut once")
        table.close(head)
        table.close(body)
        #expect(table.entries.isEmpty && table.strangers == 0)
    }

    @Test func aConnectionBeingAnsweredHasNoDeadlineAndTheNextRequestGetsAFreshOne() {
        var table = table()
        let id = table.open(fd: 7, at: t0).id
        table.enter(.busy, id, at: t0 + .seconds(1))
        #expect(table.expired(at: t0 + .seconds(600)) == [])
        table.enter(.awaitingHead, id, at: t0 + .seconds(600))
        #expect(table.expired(at: t0 + .seconds(609)) == [])
        #expect(table.expired(at: t0 + .seconds(610)) == [7])
    }

    @Test func pastTheBudgetTheOldestWaitingStrangerGivesWayNeverATrustedOrBusyOne() {
        var table = table(strangers: 3)
        let trusted = table.open(fd: 1, at: t0).id
        table.trust(trusted)
        let busy = table.open(fd: 2, at: t0).id
        table.enter(.busy, busy, at: t0)
        _ = table.open(fd: 3, at: t0)
        _ = table.open(fd: 4, at: t0)
        #expect(table.strangers == 3)
        #expect(table.open(fd: 5, at: t0).evicted == 3, "the oldest stranger waiting for its head")
        #expect(table.open(fd: 6, at: t0).evicted == 4)
        #expect(table.open(fd: 7, at: t0).evicted == 5)
        #expect(table.strangers == 3)
        #expect(table.isTrusted(trusted) && !table.isTrusted(busy))
        // Only busy strangers and newcomers left: the newest is never the one displaced.
        var full = self.table(strangers: 1)
        let working = full.open(fd: 20, at: t0).id
        full.enter(.busy, working, at: t0)
        #expect(full.open(fd: 21, at: t0).evicted == nil)
    }

    @Test func trustEndsBeingAStrangerAndClosingCountsOnce() {
        var table = table(strangers: 2)
        let a = table.open(fd: 1, at: t0).id
        let b = table.open(fd: 2, at: t0).id
        table.trust(a)
        table.trust(a)
        #expect(table.strangers == 1)
        #expect(table.expired(at: t0 + .seconds(10)).sorted() == [1, 2], "the deadline holds for trusted connections too")
        #expect(table.strangers == 0)
        table.close(a)
        table.close(b)
        table.close(b)
        #expect(table.strangers == 0 && table.entries.isEmpty)
    }
}
