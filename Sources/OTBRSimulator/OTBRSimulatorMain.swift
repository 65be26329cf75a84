internal import Dispatch
import DBus
import HTTPServer
import MDNS
import TBRCommandLine
import TBRFoundation
import TBRLifecycle

#if canImport(Glibc)
import Glibc
#endif

/// The entry point of `otbr-sim`: parses the command line, puts the simulated agents on the bus, and
/// runs until SIGTERM or SIGINT. The executable calls ``main(arguments:)``.
public enum OTBRSimulatorMain {
    /// The version printed by `otbr-sim --version`.
    public static let version = "0.1.0"

    /// Runs `otbr-sim` with `arguments` (without the program name).
    /// - Returns: the exit status: 0 after a signal, 64 usage, 69 bus unreachable or REST address not served.
    public static func main(arguments: [String]) async -> Int32 {
        let command: SimulatorCommand
        do {
            switch try CommandParser(root: SimulatorCommand.self).parse(arguments) {
            case .help(let text), .generated(let text):
                write(text, to: 1)
                return ExitCode.success.rawValue
            case .version(let line):
                write(line + "\n", to: 1)
                return ExitCode.success.rawValue
            case .command(let parsed, _):
                guard let c = parsed as? SimulatorCommand else { return ExitCode.usage.rawValue }
                command = c
            }
        } catch {
            write("otbr-sim: \(error.message)\n", to: 2)
            if let hint = error.helpHint { write(hint + "\n", to: 2) }
            return ExitCode.usage.rawValue
        }
        let logger = Logger(
            label: "otbr-sim", minimumLevel: command.verbose ? .debug : .info, sink: StandardErrorSink(syslogPrefix: false))
        // A reader that goes away must not kill the agents with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        let signals = UnixSignals(trapping: [.sigterm, .sigint])
        await signals.ready()
        var mdns: MDNSClient?
        if command.configurations.contains(where: \.mdns) {
            let client = MDNSClient(logger: logger.child("mdns"))
            await client.start()
            mdns = client
        }
        var agents: [SimulatedAgent] = []
        for configuration in command.configurations {
            let agent = SimulatedAgent(
                configuration: configuration, bus: command.bus, logger: logger, mdns: configuration.mdns ? mdns : nil)
            do {
                try await agent.start()
            } catch {
                if let error = error as? HTTPServerError, let rest = configuration.restListen {
                    write("otbr-sim: cannot serve the REST API of \(configuration.interfaceName) on \(rest): \(error)\n", to: 2)
                } else {
                    write("otbr-sim: cannot start \(configuration.interfaceName.busName) on the \(command.bus) bus: \(error)\n", to: 2)
                }
                for started in agents { await started.stop() }
                await mdns?.close()
                return ExitCode.unavailable.rawValue
            }
            agents.append(agent)
            write("ready \(configuration.interfaceName.busName)\n", to: 1)
            if let url = await agent.restURL { write("rest \(configuration.interfaceName) \(url)\n", to: 1) }
        }
        var arrivals = signals.makeAsyncIterator()
        let signal = await arrivals.next()
        logger.info("stopping", [("signal", signal.map(\.description) ?? "none")])
        for agent in agents { await agent.stop() }
        await mdns?.close()
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
