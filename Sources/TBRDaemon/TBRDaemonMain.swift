import DBus
import FoundationEssentials
import TBRCommandLine
import TBRFoundation
import TBRLifecycle

#if canImport(Glibc)
import Glibc
#endif

/// The entry point of `tbrd`: parses the command line and the configuration file, runs the daemon in a
/// service group until SIGTERM or SIGINT, and re-reads the configuration on SIGHUP.
public enum TBRDaemonMain {
    /// The version printed by `tbrd --version`.
    public static let version = "0.1.0"

    /// Runs `tbrd` with `arguments` (without the program name); returns the exit status.
    public static func main(arguments: [String]) async -> Int32 {
        // The shipped configuration file and tbrd.conf(5), generated from the settings tbrd knows.
        switch arguments {
        case ["--generate-default-config"]:
            print(DaemonConfiguration.defaultFileText(), terminator: "")
            return ExitCode.success.rawValue
        case ["--generate-config-manual"]:
            print(DaemonConfiguration.manualPage(version: version), terminator: "")
            return ExitCode.success.rawValue
        default: break
        }
        let command: DaemonCommand
        do {
            switch try CommandParser(root: DaemonCommand.self).parse(arguments) {
            case .help(let text), .generated(let text):
                print(text, terminator: "")
                return ExitCode.success.rawValue
            case .version(let line):
                print(line)
                return ExitCode.success.rawValue
            case .command(let parsed, _):
                guard let c = parsed as? DaemonCommand else { return ExitCode.usage.rawValue }
                command = c
            }
        } catch {
            FileDescriptorIO.write("tbrd: \(error.message)\n", to: 2)
            if let hint = error.helpHint { FileDescriptorIO.write(hint + "\n", to: 2) }
            return ExitCode.usage.rawValue
        }
        let configuration: DaemonConfiguration
        do {
            configuration = try load(command)
        } catch {
            FileDescriptorIO.write("tbrd: \(error.message)\n", to: 2)
            return 78  // EX_CONFIG
        }

        // Under systemd, journald reads "<N>" priority prefixes; at a terminal, plain level names read better.
        let underJournal = ProcessInfo.processInfo.environment["JOURNAL_STREAM"] != nil
        let sink = LevelFilteringSink(level: configuration.logLevel, base: StandardErrorSink(syslogPrefix: underJournal))
        let logger = Logger(label: "tbrd", minimumLevel: .trace, sink: sink)
        signal(SIGPIPE, SIG_IGN)

        // The daemon stops in order when notified (name released, calls drained, connection closed); the
        // group cancels it if that takes more than a few seconds beyond its own bound.
        let daemon = Daemon(configuration: configuration, logger: logger)
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [ServiceConfiguration(daemon, name: "tbrd", gracefulShutdownBehavior: .notify)],
                gracefulShutdownSignals: [.sigterm, .sigint],
                onReload: { _ in
                    do {
                        let reloaded = try load(command)
                        sink.minimumLevel = reloaded.logLevel
                        logger.notice("configuration reloaded", [("log-level", "\(reloaded.logLevel)")])
                    } catch {
                        logger.error("configuration not reloaded", [("error", "\(error)")])
                    }
                },
                gracefulShutdownTimeout: .seconds(configuration.shutdownTimeout + 5),
                logger: logger.child("lifecycle")))
        var status: Int32 = 0
        do {
            try await group.run()
        } catch let error as DaemonStartError {
            logger.error("tbrd cannot start", [("error", error.description)])
            status = error.exitCode
        } catch let error as DaemonStopError {
            logger.error("tbrd stopped", [("error", error.description)])
            status = error.exitCode
        } catch is CancellationError {
            status = 0
        } catch {
            logger.error("tbrd stopped on an error", [("error", "\(error)")])
            status = 70
        }
        logger.notice("tbrd stopped")
        return status
    }

    /// The configuration: defaults, then the file, then the command line.
    static func load(_ command: DaemonCommand) throws(ConfigurationError) -> DaemonConfiguration {
        var configuration = DaemonConfiguration()
        if let path = command.configFile {
            let text: String
            do { text = String(decoding: try FileDescriptorIO.readFile(atPath: path), as: UTF8.self) } catch {
                throw ConfigurationError("cannot read the configuration file \(path): \(error)")
            }
            try configuration.apply(fileText: text, path: path)
            configuration.configFile = path
        }
        for (key, value) in command.overrides { try configuration.set(key, value) }
        return configuration
    }
}
