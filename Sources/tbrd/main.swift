import TBRDaemon
#if canImport(Glibc)
import Glibc
#endif

exit(await TBRDaemonMain.main(arguments: Array(CommandLine.arguments.dropFirst())))
