import TBRCommandLine

/// `tbrctl`: the root of the command tree. Every command is reachable from here: add a group or a
/// command to `subcommands` (or to its group's) and it is parsed, documented in help, and run.
struct RootCommand: CommandGroup {
    static let configuration = CommandConfiguration(
        name: "tbrctl",
        abstract: "Manage Thread border routers: devices, ePSKc, networks, structures, datasets and Matter payloads.",
        discussion: """
            Device commands (list, info, epskc activate/deactivate/watch, network, dataset show) talk to \
            tbrd when it runs on the bus, otherwise directly to otbr-agent (said on standard error). \
            Structure commands need tbrd. discover lists the border agents on the LAN through avahi-daemon \
            (mDNS), with or without tbrd. -d ROUTER takes a tbrd router id, an interface name such as \
            wpan0, or a Border Agent ID, and may be left out when there is exactly one router.

            Output is text for people by default and JSON with --json. Secrets (network key, PSKc) are \
            shown as <redacted> unless --reveal-secrets is given where a command offers it.

            Exit status: 0 ok, 1 the operation failed, 64 usage error, 65 bad data, 69 tbrd, \
            otbr-agent, avahi-daemon or the bus unavailable, 75 busy or timed out (try again), 77 permission denied.
            """,
        version: TBRControlMain.version,
        subcommands: [
            ListRouters.self, Info.self, Mesh.self, EPSKc.self, Network.self, Dataset.self, Structure.self, Router.self, Matter.self, API.self, Backup.self, Health.self,
            Discover.self, Doctor.self, CompleteValues.self,
        ],
        manual: ManualInfo(
            section: "1",
            sections: [
                .init(
                    "Shell completion",
                    """
                    tbrctl --generate-completion-script bash|zsh|fish prints a completion script generated from the \
                    same command tree as this page: commands, options, their values, and router ids and structure \
                    names read from tbrd when it runs. The Debian package installs them for all three shells.
                    """),
                .init(
                    "Files",
                    """
                    /etc/tbrd/tbrd.conf: tbrd's configuration, see tbrd.conf(5).

                    /usr/share/doc/tbrd/: the D-Bus API (dbus-api.md), the commands with examples (cli.md) and \
                    operations (operations.md).
                    """),
            ],
            seeAlso: ["tbrd(8)", "tbrd.conf(5)"],
            dynamicValues: CompleteValues.dynamicValues))

    static let arguments: [ArgumentSpec] = [.json, .bus]
}
