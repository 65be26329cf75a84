import TBRControl
#if canImport(Glibc)
import Glibc
#endif

// Help, the version and usage errors are answered here, on the main thread, before anything async: a
// hop to the concurrency pool starts its threads, about a millisecond that these never need. So are
// `epskc activate` and `epskc deactivate` through tbrd, with blocking D-Bus calls, whenever they can be.
let console = StandardConsole()
switch TBRControlMain.prepare(arguments: Array(CommandLine.arguments.dropFirst()), console: console) {
case .exit(let status): exit(status)
case .run(let command):
    if let status = TBRControlMain.runBlocking(command, console: console) { exit(status) }
    exit(await TBRControlMain.run(command, console: console))
}
