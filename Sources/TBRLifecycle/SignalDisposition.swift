import Synchronization
import TBRFoundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The process-wide disposition of trapped signals, reference-counted across ``UnixSignals``.
///
/// A signal's disposition belongs to the whole process, so this is the one piece of process-wide state
/// in the module. While at least one ``UnixSignals`` traps a signal, its default action (terminate) must
/// not run; when the last one stops, the previous disposition comes back, so a signal that nobody
/// traps does what it did before (and tests leave the process as they found it).
///
/// How delivery works on Linux: libdispatch reads signals from a `signalfd`, which only sees signals
/// that are blocked in the receiving thread. The first time a signal source for a signal is registered,
/// libdispatch installs its own handler for it, which blocks the signal in the thread it interrupted and
/// re-sends it to libdispatch's manager thread; it never installs that handler again. So:
/// - the first trap sets `SIG_IGN` (the default action must not kill the process before libdispatch's
///   handler is in place), and libdispatch then replaces it with its handler;
/// - when the last trap ends, the handler libdispatch installed is saved and the previous disposition
///   restored; a later trap puts the saved handler back (setting `SIG_IGN` again would drop the signal).
/// - a handler installed by someone else (not `SIG_DFL`/`SIG_IGN`) is left alone.
enum SignalDisposition {
    private struct Entry {
        var users: Int
        var previous: sigaction
        var replaced: Bool
    }

    private struct State {
        var entries: [Int32: Entry] = [:]
        var dispatchHandlers: [Int32: sigaction] = [:]
    }

    private static let state = Locked(State())

    /// Starts trapping `signals` (each once, whatever the count in the list).
    static func acquire(_ signals: [UnixSignal]) {
        state.withLock { s in
            for sig in signals.map(\.rawValue) {
                if s.entries[sig] != nil {
                    s.entries[sig]!.users += 1
                    continue
                }
                var previous = sigaction()
                sigaction(sig, nil, &previous)
                let replaced = isDefaultOrIgnored(previous)
                if replaced {
                    if var saved = s.dispatchHandlers[sig] {
                        sigaction(sig, &saved, nil)
                    } else {
                        signal(sig, SIG_IGN)
                    }
                }
                s.entries[sig] = Entry(users: 1, previous: previous, replaced: replaced)
            }
        }
    }

    /// Stops trapping `signals`; the last user restores the previous disposition.
    static func release(_ signals: [UnixSignal]) {
        state.withLock { s in
            for sig in signals.map(\.rawValue) {
                guard var entry = s.entries[sig] else { continue }
                entry.users -= 1
                guard entry.users == 0 else {
                    s.entries[sig] = entry
                    continue
                }
                s.entries[sig] = nil
                guard entry.replaced else { continue }
                var current = sigaction()
                sigaction(sig, nil, &current)
                if !isDefaultOrIgnored(current) { s.dispatchHandlers[sig] = current }
                sigaction(sig, &entry.previous, nil)
            }
        }
    }

    /// Whether `action` is `SIG_DFL` or `SIG_IGN` rather than a handler function.
    private static func isDefaultOrIgnored(_ action: sigaction) -> Bool {
        let handler = unsafeBitCast(action.__sigaction_handler.sa_handler, to: Int.self)
        return handler == unsafeBitCast(SIG_DFL, to: Int.self) || handler == unsafeBitCast(SIG_IGN, to: Int.self)
    }
}
