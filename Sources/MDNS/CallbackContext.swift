internal import Dispatch

/// What an Avahi callback needs to reach its ``MDNSClient``: the client (weakly: a callback may outlive
/// it) and the token of the C object the callback belongs to. Handed to Avahi as `userdata`,
/// unretained; the handle of the C object keeps it alive while Avahi may call back.
///
/// Callbacks copy what Avahi lends them (strings, addresses, TXT lists are only valid during the call)
/// and ``post(_:)`` the work to the client's queue, never calling back into Avahi from inside Avahi.
final class CallbackContext: Sendable {
    let token: UInt64
    private let queue: DispatchQueue
    private weak let client: MDNSClient?

    init(token: UInt64, client: MDNSClient, queue: DispatchQueue) {
        self.token = token
        self.queue = queue
        self.client = client
    }

    /// The context Avahi hands back as `userdata`.
    static func from(_ userdata: UnsafeMutableRawPointer?) -> CallbackContext? {
        userdata.map { Unmanaged<CallbackContext>.fromOpaque($0).takeUnretainedValue() }
    }

    /// `userdata` for Avahi (unretained).
    var userdata: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    /// Runs `work` on the client's executor after the current Avahi callback has returned.
    func post(_ work: @escaping @Sendable (isolated MDNSClient) -> Void) {
        queue.async { [weak client] in
            guard let client else { return }
            client.assumeIsolated { work($0) }
        }
    }
}
