import TBRCommandLine
import TBRFoundation
import TBRLifecycle

#if canImport(Glibc)
import Glibc
#endif

/// The entry point of `matter-sim`: parses the command line, listens, prints the ready line, and runs
/// until SIGTERM or SIGINT. The executable calls ``main(arguments:)``.
public enum MatterSimulatorMain {
    /// The version printed by `matter-sim --version`.
    public static let version = "0.1.0"

    /// Runs `matter-sim` with `arguments` (without the program name).
    /// - Returns: the exit status: 0 after a signal, 64 usage, 69 cannot listen.
    public static func main(arguments: [String]) async -> Int32 {
        let command: MatterSimCommand
        do {
            switch try CommandParser(root: MatterSimCommand.self).parse(arguments) {
            case .help(let text), .generated(let text):
                write(text, to: 1)
                return ExitCode.success.rawValue
            case .version(let line):
                write(line + "\n", to: 1)
                return ExitCode.success.rawValue
            case .command(let parsed, _):
                guard let c = parsed as? MatterSimCommand else { return ExitCode.usage.rawValue }
                command = c
            }
        } catch {
            write("matter-sim: \(error.message)\n", to: 2)
            if let hint = error.helpHint { write(hint + "\n", to: 2) }
            return ExitCode.usage.rawValue
        }
        let configuration = command.configuration
        let logger = Logger(
            label: "matter-sim", minimumLevel: configuration.verbose ? .debug : .info, sink: StandardErrorSink(syslogPrefix: false))
        // A client that goes away must not kill the server with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        let signals = UnixSignals(trapping: [.sigterm, .sigint])
        await signals.ready()
        let simulator: MatterSimulator
        do {
            simulator = try await MatterSimulator.start(configuration: configuration, logger: logger)
        } catch {
            write("matter-sim: \(error)\n", to: 2)
            return ExitCode.unavailable.rawValue
        }
        write("ready \(simulator.url)\n", to: 1)
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await simulator.run() }
            for await signal in signals {
                logger.info("stopping", [("signal", "\(signal)")])
                break
            }
            await simulator.shutDown()
            group.cancelAll()
        }
        return ExitCode.success.rawValue
    }

    /// Writes `text` to file descriptor `fd` at once (standard output is read line by line by tests).
    static func write(_ text: String, to fd: Int32) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                return
            }
            offset += n
        }
    }
}
