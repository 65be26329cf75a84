import DBus
import TBRCommandLine
import TBRFoundation

/// `tbrd`'s command line, declared once; help is generated from it. Options given here override the
/// configuration file.
struct DaemonCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "tbrd",
        abstract: "The Thread Border Router management service: io.tbrd on D-Bus, beside otbr-agent.",
        discussion: """
            Runs in the foreground and logs to standard error (journald reads the <N> priority prefixes when \
            it runs under systemd). SIGTERM or SIGINT stop it gracefully (io.tbrd is released first, calls in \
            flight get shutdown-timeout seconds to finish; a second signal stops at once); SIGHUP re-reads the configuration \
            file (log-level takes effect at once, the rest at the next start). The D-Bus API is in \
            docs/dbus-api.md, the HTTPS API (http-listen in tbrd.conf) in docs/http-api.md, MQTT and Home \
            Assistant (mqtt-url) in docs/mqtt.md; operations (install, policy, state, logs) in docs/operations.md. \
            A broker that is away or refuses tbrd does not stop it: tbrd serves on and connects again.

            Exit status: 0 stopped by a signal, 64 usage error, 69 the bus or the name io.tbrd is not \
            available (tbrd already running?) or the bus went away while tbrd ran, or the HTTPS API cannot \
            listen, 70 internal error, 73 the state database cannot be used, 78 configuration error (a \
            backup passphrase or MQTT password file others may read, libmosquitto missing).
            """,
        version: TBRDaemonMain.version,
        manual: ManualInfo(
            section: "8",
            sections: [
                .init(
                    "Signals",
                    """
                    SIGTERM, SIGINT: a graceful stop, exit status 0. tbrd releases io.tbrd first (new clients no \
                    longer reach it; tbrctl falls back to otbr-agent directly), refuses further calls with \
                    io.tbrd.Error.Unavailable "tbrd is stopping", lets calls in flight finish for up to \
                    shutdown-timeout seconds (default 10), then closes its connection; a call still running then \
                    gets the bus's NoReply. A second signal, or shutdown-timeout + 5 seconds, cancels everything at \
                    once.

                    SIGHUP (systemctl reload tbrd): re-reads the configuration file. log-level takes effect at \
                    once, every other setting at the next start.
                    """),
                .init(
                    "Files",
                    """
                    /etc/tbrd/tbrd.conf: the configuration, see tbrd.conf(5).

                    /var/lib/tbrd/tbrd.db: the state database (structures, routers on other hosts, the ePSKc \
                    journal, Matter nodes), mode 0600 in a directory of mode 0700.

                    /usr/share/dbus-1/system.d/io.tbrd.conf: who may call io.tbrd (root and group tbrd-admin: \
                    everything; group tbrd: reading) and the user tbrd's access to otbr-agent.
                    """),
                .init(
                    "Generated documentation",
                    """
                    tbrd --generate-manual prints this page, tbrd --generate-config-manual prints tbrd.conf(5) and \
                    tbrd --generate-default-config the shipped configuration file, all generated from the \
                    declarations tbrd parses its command line and configuration with.
                    """),
            ],
            seeAlso: ["tbrctl(1)", "tbrd.conf(5)"]))

    static let arguments: [ArgumentSpec] = [
        .option("bus", valueName: "system|session|ADDRESS", help: "The bus to serve on and to find otbr-agents on (default system)."),
        .option("state-dir", valueName: "DIR", help: "Directory of the state database (default /var/lib/tbrd)."),
        .option("config", valueName: "FILE", help: "Configuration file (see config/tbrd.conf); read again on SIGHUP."),
        .option("log-level", valueName: "LEVEL", help: "trace, debug, info, notice, warning or error (default info)."),
    ]

    /// Settings given on the command line, as configuration keys.
    let overrides: [(String, String)]
    let configFile: String?

    init(_ values: ParsedValues) throws(UsageError) {
        var overrides: [(String, String)] = []
        for (option, key) in [("bus", "bus"), ("state-dir", "state-dir"), ("log-level", "log-level")] {
            if let value = values.string(option) { overrides.append((key, value)) }
        }
        configFile = values.string("config")
        // Check the values now so a typo is a usage error, not a start-up failure.
        var probe = DaemonConfiguration()
        for (key, value) in overrides {
            do throws(ConfigurationError) {
                try probe.set(key, value)
            } catch {
                throw UsageError("invalid value '\(value)' for '--\(key)': \(error.message)")
            }
        }
        self.overrides = overrides
    }
}
