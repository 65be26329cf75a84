import TBRCommandLine

/// `tbrctl list`: the border routers tbrd knows, or without tbrd the otbr-agents on the bus.
struct ListRouters: ControlCommand {
    static let configuration = CommandConfiguration(
        name: "list",
        abstract: "List the border routers (via tbrd; without it, the otbr-agents on the bus).",
        discussion: """
            One line per router: its id, how its otbr-agent is reached (dbus: on this host's bus, with its \
            interface; rest: on another host, with its REST URL), whether the agent answers, its Thread role, \
            its network and whether it supports ePSKc. tbrd lists every router it has seen or was given, \
            offline ones included; without tbrd only the agents on the bus now are listed.
            """)

    init(_ values: ParsedValues) {}

    func run(in context: CommandContext) async throws -> ExitCode {
        let routers = try await RouterSession.withBackend(context) { try await $0.routers() }
        if context.json {
            try context.writeJSON(routers)
        } else if routers.isEmpty {
            context.write("no border routers")
        } else {
            context.write(
                TextTable.render(
                    header: ["ID", "TRANSPORT", "ADDRESS", "STATE", "ROLE", "NETWORK", "EXTENDED PAN ID", "EPSKC"],
                    rows: routers.map {
                        [
                            $0.id, $0.transport, $0.transport == "dbus" ? $0.interface : $0.address, $0.online ? "online" : "offline", $0.role.orDash, $0.networkName.orDash,
                            $0.extPanId.orDash, $0.epskcSupported ? "yes" : "no",
                        ]
                    }))
        }
        return .success
    }
}
