import TBRFoundation
internal import CDBus

/// A bus connection for a process that makes a call or two and exits: each call blocks the calling
/// thread until its reply comes, in libdbus's own blocking I/O.
///
/// It exists for `tbrctl`. A ``Connection`` runs on a Dispatch queue and is awaited from Swift's
/// concurrency pool, and starting those threads costs a command that lives a few milliseconds about a
/// millisecond, more than tbrd spends on an ePSKc call (docs/performance.md). This one has no queue, no
/// watch, no timer and starts no thread: libdbus polls the socket inside ``call(destination:path:interface:member:arguments:timeout:)``.
/// tbrd never uses it: a daemon must not hold a thread while a peer thinks. It is not `Sendable`: one
/// thread opens it, calls and closes it. Messages other than the replies awaited (the bus's
/// `NameAcquired`, signals) stay unread in libdbus's queue until the connection closes, so it is not
/// for a long life either.
///
/// Messages are built by ``OutgoingMessage`` and replies decoded into ``Message`` (``MessageCodec``), as
/// ``Connection`` does, and calls end the same ways: an error reply is a ``DBusError`` with the name and
/// text as sent, a passed timeout is `NoReply` ("no reply before the call's timeout"), the bus going
/// away is `Disconnected`.
public final class BlockingConnection {
    private let raw: OpaquePointer
    private var isClosed = false
    /// The bus this connection is on.
    public let bus: Bus

    /// Connects to `bus` and registers with it (`Hello`), blocking until the bus answers; `bus` is
    /// resolved as ``Connection`` resolves it (``LibDBus/openPrivate(_:)``).
    /// - Throws: ``DBusError`` when libdbus cannot be loaded or the bus cannot be reached ("cannot connect
    ///   to the system bus: …").
    public init(bus: Bus) throws(DBusError) {
        raw = try LibDBus.openPrivate(bus)
        self.bus = bus
    }

    deinit {
        close()
        LibDBus.c.connection_unref(raw)
    }

    /// Calls `member` and blocks until its reply, its timeout or the end of the connection.
    ///
    /// Uses `dbus_connection_send_with_reply`, `dbus_pending_call_block` and
    /// `dbus_pending_call_steal_reply`, which is what `dbus_connection_send_with_reply_and_block` does
    /// inside; unlike that function it keeps the reply message, so an error reply without text stays
    /// without text (libdbus would put a stock sentence in) and a timeout libdbus declares itself can be
    /// told from a `NoReply` a peer sends.
    /// - Parameters:
    ///   - destination: the bus name to call (a well-known or unique name).
    ///   - path: the object.
    ///   - interface: the interface, or nil to let the peer pick by member name.
    ///   - member: the method.
    ///   - arguments: the arguments, in order.
    ///   - timeout: how long to wait for the reply; on expiry the call fails with `NoReply`.
    /// - Returns: the reply's arguments.
    /// - Throws: ``DBusError`` for an error reply (its name and message as sent), `NoReply` on timeout,
    ///   `Disconnected` when the connection is closed or the bus goes away, `InvalidArgs` for arguments
    ///   that cannot be sent.
    public func call(
        destination: BusName, path: ObjectPath, interface: InterfaceName?, member: MemberName,
        arguments: [DBusValue] = [], timeout: Duration = Connection.defaultTimeout
    ) throws(DBusError) -> [DBusValue] {
        guard !isClosed else { throw .disconnected() }
        let message = try OutgoingMessage.methodCall(
            destination: destination, path: path, interface: interface, member: member, body: arguments)
        var pending: OpaquePointer?
        guard LibDBus.c.connection_send_with_reply(raw, message.raw, &pending, Self.milliseconds(timeout)) != 0 else {
            throw DBusError(.noMemory, "libdbus could not queue the message")
        }
        // libdbus gives no pending call on a connection that is already disconnected.
        guard let pending else { throw .busClosedConnection }
        defer { LibDBus.c.pending_call_unref(pending) }
        LibDBus.c.pending_call_block(pending)
        guard let raw = LibDBus.c.pending_call_steal_reply(pending) else { throw .busClosedConnection }
        defer { LibDBus.c.message_unref(raw) }
        let reply: Message
        do { reply = try Message(raw) } catch {
            throw DBusError(.failed, "the reply to \(member) could not be decoded: \(error)")
        }
        // libdbus answers a call itself, with no sender, when the timeout passes or the connection breaks
        // first; say which, in the words of Connection.
        if reply.kind == .error, reply.sender == nil, reply.errorName == .noReply {
            throw LibDBus.c.connection_get_is_connected(self.raw) != 0 ? .callTimedOut : .busClosedConnection
        }
        return try reply.replyOutcome.get().body
    }

    /// Closes the connection; later calls fail with `Disconnected`. Idempotent; dropping the connection
    /// closes it too.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        LibDBus.c.connection_close(raw)
    }

    /// `timeout` in whole milliseconds for libdbus (an `int`), from 0 to `INT_MAX` (libdbus's "infinite").
    static func milliseconds(_ timeout: Duration) -> Int32 {
        Int32(clamping: timeout.milliseconds())
    }
}

/// One thread opens, uses and closes a ``BlockingConnection``.
@available(*, unavailable)
extension BlockingConnection: Sendable {}
