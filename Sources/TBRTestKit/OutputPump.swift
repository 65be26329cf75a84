import Dispatch
import TBRFoundation

#if canImport(Glibc)
import Glibc
#endif

/// A ``TestProcess``'s standard output and error: two pipes whose read ends are watched on one queue;
/// what arrives is appended to a file per pipe, then every subscribed wait is woken. A pipe is watched
/// until its end of file (the child and whatever inherited it have closed it), which nobody waits for.
///
/// Confinement: the watches, the files and the read ends are touched only on `queue`.
final class OutputPump: @unchecked Sendable {
    /// The write ends the child gets as descriptors 1 and 2 (closed here by ``start()``).
    let writeEnds: [Int32]
    private let readEnds: [Int32]
    private let files: [Int32]
    private let queue = DispatchQueue(label: "tbrd.test.output-pump")
    private var watches: [DescriptorWatch?] = []
    /// Told after each arrival is in its file.
    let arrivals = ChangeNotifier()

    /// Two pipes, and `paths` (two) made empty for what comes through them.
    init(paths: [String]) throws {
        var reads: [Int32] = [], writes: [Int32] = [], files: [Int32] = []
        func closeAll() { for fd in reads + writes + files { close(fd) } }
        for path in paths {
            var ends: [Int32] = [0, 0]
            guard pipe(&ends) == 0 else {
                let code = errno
                closeAll()
                throw TestKitError("pipe: \(Errno(code).description)")
            }
            reads.append(ends[0])
            writes.append(ends[1])
            // (pipe2 is not in the Glibc module.) Nothing else is spawned with these: every spawn closes
            // what it does not pass on, so the flags need not be set atomically.
            for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
            _ = fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK)
            let file = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0o600)
            guard file >= 0 else {
                let code = errno
                closeAll()
                throw TestKitError("cannot create \(path): \(Errno(code).description)")
            }
            files.append(file)
        }
        (readEnds, writeEnds, self.files) = (reads, writes, files)
    }

    /// Closes the write ends (the child has its copies, or was not started) and starts watching. The
    /// watches hold the pump until both pipes end.
    /// - Throws: ``TestKitError`` when a pipe cannot be watched (out of descriptors): its child would
    ///   block once the pipe is full, so it must not run.
    func start() throws {
        for fd in writeEnds { close(fd) }
        try queue.sync {
            for (index, fd) in readEnds.enumerated() {
                do {
                    let watch = try DescriptorWatch(taking: fd, events: .readable, queue: queue) { _ in self.pump(index) }
                    watch.enabled = .readable
                    watches.append(watch)
                } catch {
                    for watch in watches { watch?.cancel() }
                    // (The failed watch closed its own descriptor.)
                    for fd in readEnds[(index + 1)...] { close(fd) }
                    for file in files { close(file) }
                    watches = []
                    throw TestKitError("cannot watch a child's output: \(error)")
                }
            }
        }
    }

    /// Copies what pipe `index` holds now into its file; at its end stops watching it. On `queue`.
    private func pump(_ index: Int) {
        dispatchPrecondition(condition: .onQueue(queue))
        guard watches.indices.contains(index), let watch = watches[index] else { return }
        var buffer = [UInt8](repeating: 0, count: 65536)
        var moved = false
        while true {
            let n = read(watch.descriptor, &buffer, buffer.count)
            if n > 0 {
                var written = 0
                while written < n {
                    let w = buffer.withUnsafeBytes { write(files[index], $0.baseAddress! + written, n - written) }
                    if w <= 0 { break }
                    written += w
                }
                moved = true
                continue
            }
            if n < 0, errno == EINTR { continue }
            if n == 0 || errno != EAGAIN {
                watch.cancel()
                watches[index] = nil
                close(files[index])
                moved = true
            }
            break
        }
        if moved { arrivals.changed() }
    }

    /// Copies whatever the pipes hold into the files now: what the child wrote before this call is then
    /// in them.
    func drain() {
        queue.sync {
            for index in watches.indices { pump(index) }
        }
    }
}
