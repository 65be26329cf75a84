import TBRDaemon
import TBRFoundation
#if canImport(Glibc)
import Glibc
#endif

// tbrd runs on Swift's global executor; the main thread only waits for it to exit. An `await` here
// would make this an async main, whose main thread leaves through `dispatch_main()`'s `pthread_exit`: a
// forced unwind of its stack that reads about 0.8 MiB of `.eh_frame` into every tbrd at start, to stay
// resident (docs/performance.md). Nothing in tbrd runs on the main actor, so nothing needs the main
// queue that `dispatch_main()` would serve. `pause()` returns after each signal the thread catches.
ProcessHeap.useOneArena()
let arguments = Array(CommandLine.arguments.dropFirst())
Task.detached { [arguments] in exit(await TBRDaemonMain.main(arguments: arguments)) }
while true { pause() }
