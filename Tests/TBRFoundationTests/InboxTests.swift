import TBRFoundation
import Testing

/// The one bounded merge: what waits is read in order; a post into a full inbox ends it, and the reader
/// learns that it fell behind instead of memory growing or an element vanishing unnoticed.
@Suite struct InboxTests {
    @Test func elementsArriveInOrderAndFinishEndsTheStream() async {
        let inbox = Inbox<Int>(capacity: 4)
        #expect(inbox.post(1) && inbox.post(2))
        inbox.finish()
        #expect(!inbox.post(3), "an ended inbox takes nothing")
        var read: [Int] = []
        for await n in inbox.stream { read.append(n) }
        #expect(read == [1, 2])
        #expect(!inbox.overflowed)
    }

    @Test func aFullInboxEndsAndSaysSo() async {
        let inbox = Inbox<Int>(capacity: 3)
        for n in 1...3 { #expect(inbox.post(n)) }
        #expect(!inbox.post(4), "the fourth finds it full")
        #expect(!inbox.post(5))
        var read: [Int] = []
        for await n in inbox.stream { read.append(n) }
        #expect(read == [1, 2, 3], "what waited is still read")
        #expect(inbox.overflowed)
    }
}
