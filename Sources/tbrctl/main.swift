import TBRControl
#if canImport(Glibc)
import Glibc
#endif

// Help, the version and usage errors are answered here, on the main thread, before anything async:
// a hop to the concurrency pool starts its threads, about a millisecond that these never need.
let console = StandardConsole()
switch TBRControlMain.prepare(arguments: Array(CommandLine.arguments.dropFirst()), console: console) {
case .exit(let status): exit(status)
case .run(let command): exit(await TBRControlMain.run(command, console: console))
}
