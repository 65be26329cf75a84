import MatterSimulator
#if canImport(Glibc)
import Glibc
#endif

exit(await MatterSimulatorMain.main(arguments: Array(CommandLine.arguments.dropFirst())))
