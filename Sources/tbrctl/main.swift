import TBRControl
#if canImport(Glibc)
import Glibc
#endif

exit(await TBRControlMain.main(arguments: Array(CommandLine.arguments.dropFirst())))
