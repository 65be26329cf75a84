@testable import DBus
import Testing

/// The owner table in the orders the connection can see its events in, deterministically: the
/// `GetNameOwner` answer and a `NameOwnerChanged` can reach the actor in either order.
@Suite struct OwnerTableTests {
    static let name = "io.tbrd.Followed"

    /// A table following `name` with its rule in place.
    static func following() -> OwnerTable {
        var table = OwnerTable()
        let start = table.retain(name)
        let waiting = table.ruleAdded(name)
        #expect(start == .addRule && waiting.isEmpty)
        return table
    }

    @Test func anAnswerWithNoChangeSinceItWasAskedIsInstalled() {
        var table = Self.following()
        let ticket = table.lookupTicket(Self.name)
        let installed = table.lookupAnswered(Self.name, owner: ":1.5", ticket: ticket)
        #expect(installed)
        #expect(table.owner(of: Self.name) == ":1.5")
    }

    /// The race of issue 9: the owner leaves after the bus answered `GetNameOwner` but before the actor
    /// resumed with the answer. The stale owner must not be installed.
    @Test func aStaleAnswerDoesNotUndoTheOwnerLeaving() {
        var table = Self.following()
        let ticket = table.lookupTicket(Self.name)
        // The bus answered ":1.5", then sent NameOwnerChanged(name, ":1.5", ""); the queue applies the
        // change before the actor resumes with the answer.
        table.ownerChanged(Self.name, to: nil)
        let installed = table.lookupAnswered(Self.name, owner: ":1.5", ticket: ticket)
        #expect(!installed)
        #expect(table.owner(of: Self.name) == nil)
    }

    @Test func aStaleAnswerDoesNotUndoANewOwner() {
        var table = Self.following()
        let ticket = table.lookupTicket(Self.name)
        table.ownerChanged(Self.name, to: ":1.9")
        let installed = table.lookupAnswered(Self.name, owner: ":1.5", ticket: ticket)
        #expect(!installed)
        #expect(table.owner(of: Self.name) == ":1.9")
    }

    @Test func aChangeAfterTheAnswerWins() {
        var table = Self.following()
        let ticket = table.lookupTicket(Self.name)
        table.lookupAnswered(Self.name, owner: ":1.5", ticket: ticket)
        table.ownerChanged(Self.name, to: nil)
        #expect(table.owner(of: Self.name) == nil)
    }

    @Test func aLookupAskedAfterAChangeIsInstalled() {
        var table = Self.following()
        table.ownerChanged(Self.name, to: ":1.5")
        let ticket = table.lookupTicket(Self.name)
        let installed = table.lookupAnswered(Self.name, owner: ":1.7", ticket: ticket)
        #expect(installed)
        #expect(table.owner(of: Self.name) == ":1.7")
    }

    @Test func changesForNamesNobodyFollowsAreIgnored() {
        var table = OwnerTable()
        table.ownerChanged(Self.name, to: ":1.5")
        #expect(!table.isFollowing(Self.name))
        #expect(table.owner(of: Self.name) == nil)
    }

    @Test func onlyTheFirstSubscriptionAddsTheRuleAndOnlyTheLastRemovesIt() {
        var table = OwnerTable()
        let first = table.retain(Self.name)
        let second = table.retain(Self.name)
        _ = table.ruleAdded(Self.name)
        let third = table.retain(Self.name)
        #expect([first, second, third] == [.addRule, .waitForRule, .ready])
        let removals = [table.release(Self.name), table.release(Self.name), table.release(Self.name)]
        #expect(removals == [false, false, true])
        #expect(!table.isFollowing(Self.name))
    }

    @Test func aFailedRuleForgetsTheNameAndNeedsNoRemoval() {
        var table = OwnerTable()
        _ = table.retain(Self.name)
        let waiting = table.ruleFailed(Self.name)
        #expect(waiting.isEmpty)
        #expect(!table.isFollowing(Self.name))
        let removal = table.release(Self.name)
        #expect(!removal)
        // The next subscription starts over.
        let next = table.retain(Self.name)
        #expect(next == .addRule)
    }
}
