import OTBRSimulator
#if canImport(Glibc)
import Glibc
#endif

exit(await OTBRSimulatorMain.main(arguments: Array(CommandLine.arguments.dropFirst())))
