import TBRCommandLine

extension DaemonConfiguration {
    /// Settings documented together: their keys with the defaults as written in a configuration file,
    /// and what they mean.
    public struct SettingGroup: Sendable {
        /// Each key and its default, as `key = default` would set it.
        public let keys: [(key: String, defaultValue: String)]
        /// What the settings mean, one paragraph.
        public let text: String

        init(_ keys: [(key: String, defaultValue: String)], _ text: String) {
            self.keys = keys
            self.text = text
        }
    }

    /// Every setting tbrd knows, in the order the shipped configuration file and tbrd.conf(5) list them:
    /// the one source of both (`tbrd --generate-default-config`, `tbrd --generate-config-manual`).
    public static let settings: [SettingGroup] = [
        SettingGroup(
            [("bus", "system")],
            """
            The bus to serve io.tbrd on and to find otbr-agents on: system, session or a D-Bus address.
            """),
        SettingGroup(
            [("state-dir", "/var/lib/tbrd")],
            """
            Where the state database (tbrd.db, mode 0600) lives.
            """),
        SettingGroup(
            [("log-level", "info")],
            """
            trace, debug, info, notice, warning or error. Secrets are never logged at any level.
            """),
        SettingGroup(
            [("journal-max-events", "10000"), ("journal-max-age-days", "90")],
            """
            The ePSKc event journal (what `tbrctl epskc watch --since SEQ` replays) keeps at most this many \
            events, and none older than this many days. An open session's activation is always kept.
            """),
        SettingGroup(
            [("vendor-id", "0"), ("product-id", "0")],
            """
            Matter vendor and product IDs reported as BasicInformation.vendorID / productID (0 = unknown).
            """),
        SettingGroup(
            [("vendor-name", ""), ("product-name", "")],
            """
            BasicInformation vendor and product names. otbr-agent has no D-Bus property for them; unset, \
            tbrd reports what the router advertises in its _meshcop._udp mDNS record (vn, mn), else empty.
            """),
        SettingGroup(
            [("shutdown-timeout", "10")],
            """
            On SIGTERM tbrd releases io.tbrd at once, then lets calls in flight finish for this many seconds \
            before it closes its connection (a second SIGTERM stops at once).
            """),
        SettingGroup(
            [("policy-check-interval", "60")],
            """
            The internet-access policy of structures (docs/operations.md, "What tbrd changes on the host"). \
            Every this many seconds tbrd reads NAT64 and DHCPv6-PD back from the routers of managed \
            structures, and its own firewall table, and applies the policy again where someone changed it.
            """),
        SettingGroup(
            [("rest-poll-interval", "5"), ("rest-timeout", "5")],
            """
            Border routers on other hosts (tbrctl router add URL), reached through otbr-agent's REST API: \
            tbrd polls each every this many seconds (its presence, role, network, and keys someone else \
            started), and gives one request at most rest-timeout seconds. Fractions are allowed.
            """),
        SettingGroup(
            [("agent-rest", "auto")],
            """
            The REST API of each otbr-agent on this host, whose network diagnostics show the whole mesh \
            (tbrctl mesh: every router and its children, not only the agent's own neighbours). auto: \
            otbr-agent's default http://127.0.0.1:8081, used for the router whose extended address it \
            answers with; off: none; or INTERFACE=URL pairs (wpan0=http://127.0.0.1:8081 \
            wpan1=http://127.0.0.1:8082).
            """),
        SettingGroup(
            [("network-stale-after", "30")],
            """
            The network directory of structures (tbrctl network list): a network that none of the \
            structure's routers is on, and that no border agent has shown on mDNS for this many days, is \
            marked stale ('tbrctl network forget S --stale' removes those).
            """),
        SettingGroup(
            [("health-interval", "300"), ("health-retention", "30")],
            """
            Health (docs/operations.md, "What tbrd watches"): tbrd runs the doctor's checks of a router each \
            time its role or presence changes, and of every router and the host every health-interval \
            seconds as a backstop; a failing check opens a problem (tbrctl health), a passing one closes it. \
            Closed problems are kept health-retention days.
            """),
        SettingGroup(
            [("backup-dir", ""), ("backup-keep", "10"), ("backup-passphrase-file", ""), ("backup-interval", "60")],
            """
            Automatic backups (docs/operations.md, "Backups and recovery"), off unless backup-dir is set: \
            after each change a restore would need (a structure, its routers, settings, rooms, networks or \
            Matter nodes), at most once every backup-interval seconds, tbrd writes \
            tbrd-YYYYMMDDTHHMMSSZ.tbrdbackup there (mode 0600, whole or not at all: a full disk leaves the \
            last one readable) and removes the oldest beyond backup-keep (only files it named so). They are \
            sealed with the passphrase in backup-passphrase-file (its first line, at least 8 characters), \
            which must be mode 0600 and owned by root or by tbrd's user, or tbrd refuses to start and says why.
            """),
        SettingGroup(
            [("firewall", "nftables")],
            """
            The host firewall of the policy: nftables (tbrd keeps one table of its own, table inet tbrd, in \
            the network namespace it runs in) or off (tbrd then only switches NAT64 and DHCPv6-PD on the \
            routers).
            """),
        SettingGroup(
            [("nft-path", "nft")],
            """
            The nft tool: a name looked up on PATH (then /usr/sbin and /sbin), or a path.
            """),
        SettingGroup(
            [("matter-backend", "none"), ("matter-server-url", "ws://127.0.0.1:5580/ws")],
            """
            Matter commissioning (docs/operations.md, "Matter commissioning"): the commissioner tbrd hands \
            devices to. none: the commissioning methods answer io.tbrd.Error.NotSupported. matter-server: \
            python-matter-server's WebSocket API at matter-server-url (run it beside tbrd; it may be Home \
            Assistant's: tbrd never touches the nodes no structure of its holds). Without radio, matter-sim \
            speaks the same API for demos and tests (docs/matter-sim.md).
            """),
        SettingGroup(
            [("matter-session-timeout", "600"), ("matter-commission-timeout", "300"), ("matter-call-timeout", "30")],
            """
            A commissioning session ends by itself after this many seconds; commissioning one device may \
            take this many seconds, any other call to the commissioner this many.
            """),
        SettingGroup(
            [("http-listen", ""), ("http-tls", "auto")],
            """
            The HTTPS API (docs/http-api.md), off unless http-listen is set: ADDR:PORT, an \
            IPv4 address or a bracketed IPv6 one ([::1]:8443, 0.0.0.0:8443, [::]:8443). Every request \
            needs a token (tbrctl api token create). http-tls auto serves plain HTTP on a loopback \
            address only and TLS on any other; on serves TLS everywhere. The certificate is made at first \
            start (api-cert.pem and api-key.pem in state-dir, mode 0600); tbrctl api info shows its \
            SHA-256 fingerprint.
            """),
        SettingGroup(
            [
                ("mqtt-url", ""), ("mqtt-username", ""), ("mqtt-password-file", ""), ("mqtt-ca-file", ""), ("mqtt-base-topic", "tbrd"),
                ("mqtt-discovery-prefix", "homeassistant"), ("mqtt-client-id", ""), ("mqtt-admin", "no"), ("mqtt-epskc", "no"),
            ],
            """
            MQTT (docs/mqtt.md), off unless mqtt-url is set: mqtt://HOST:1883, or mqtts://HOST:8883 checked \
            against mqtt-ca-file (unset: the system's CAs). tbrd publishes its routers and structures \
            retained under mqtt-base-topic, its events, and Home Assistant's discovery configs under \
            mqtt-discovery-prefix (empty: none), and answers requests on mqtt-base-topic/bridge/request/#. \
            The password is the first line of mqtt-password-file, which must be mode 0600 and owned by root \
            or by tbrd's user, or tbrd refuses to start and says why. mqtt-client-id unset is tbrd- and the \
            host name. Reading and setting a structure's internet access are always served; mqtt-admin yes \
            also serves what only an admin token may do over HTTPS (structures, rooms, join, leave, \
            commissioning), and mqtt-epskc yes ePSKc activation, whose key then crosses the broker.
            """),
    ]

    /// Every key a configuration file may set.
    public static var keys: [String] { settings.flatMap { $0.keys.map(\.key) } }

    /// What the file says before the settings.
    static let fileIntroduction = """
        tbrd configuration (installed to /etc/tbrd/tbrd.conf). One "key = value" per line; "#" starts a \
        comment. Command-line options override these settings. tbrd re-reads this file on SIGHUP \
        (systemctl reload tbrd); log-level takes effect at once, the others at the next start. The values \
        below are the defaults.
        """

    /// The configuration file tbrd ships (`config/tbrd.conf`): every setting commented out at its
    /// default, under what it means.
    public static func defaultFileText() -> String {
        var blocks = [comment(fileIntroduction)]
        for group in settings {
            let keys = group.keys.map { "# \($0.key) =" + ($0.defaultValue.isEmpty ? "" : " " + $0.defaultValue) }
            blocks.append(comment(group.text) + "\n" + keys.joined(separator: "\n"))
        }
        return blocks.joined(separator: "\n\n") + "\n"
    }

    /// The manual page tbrd.conf(5), in roff.
    public static func manualPage(version: String) -> String {
        var page = [
            Roff.header(name: "tbrd.conf", section: "5", source: "tbrd \(version)", manual: "tbrd"),
            ".SH NAME",
            "tbrd.conf \\- configuration of tbrd, the Thread Border Router management service",
            ".SH SYNOPSIS",
            Roff.bold("/etc/tbrd/tbrd.conf"),
            ".SH DESCRIPTION",
            Roff.paragraphs(fileIntroduction),
            ".SH SETTINGS",
        ]
        for group in settings {
            let tags = group.keys.map { Roff.bold($0.key) + " = " + Roff.italic($0.defaultValue.isEmpty ? "(unset)" : $0.defaultValue) }
            page.append(".TP\n" + tags.joined(separator: "\n.TQ\n") + "\n" + Roff.escape(group.text))
        }
        page.append(Roff.seeAlso(["tbrd(8)", "tbrctl(1)"]))
        return page.joined(separator: "\n") + "\n"
    }

    /// `text` as `# ` comment lines of at most 100 characters.
    private static func comment(_ text: String) -> String {
        TextFill.lines(of: text, width: 98).map { "# " + $0 }.joined(separator: "\n")
    }
}
