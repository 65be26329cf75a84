import DBus
import OpenThreadBR

/// The declarations exported at `/io/openthread/BorderRouter/<if>`: `io.openthread.BorderRouter` with
/// the RCP agent's members and signatures, and the agent's own `org.freedesktop.DBus.Properties`. Every
/// method checks its arguments itself, answering with the agent's error names.
extension SimulatedAgent {
    /// A handler that calls into the agent, failing cleanly if the agent is gone.
    private nonisolated func bind(
        _ body: @escaping @Sendable (SimulatedAgent, MethodCall) async throws -> [DBusValue]
    ) -> @Sendable (MethodCall) async throws -> [DBusValue] {
        { [weak self] call in
            guard let self else { throw DBusError(.failed, "the simulated agent is gone") }
            do {
                let reply = try await body(self, call)
                await self.advertise()
                return reply
            } catch {
                await self.advertise()
                throw error
            }
        }
    }

    private nonisolated func method(
        _ name: MemberName, _ inputs: [Argument] = [], _ outputs: [Argument] = [],
        _ body: @escaping @Sendable (SimulatedAgent, MethodCall) async throws -> [DBusValue]
    ) -> Method {
        Method(name, inputs: inputs, outputs: outputs, checksArguments: false, handler: bind(body))
    }

    /// The agent object's interfaces.
    nonisolated func agentInterfaces() -> [Interface] {
        let prefix = SignatureType.structure([.array(.byte), .byte])
        let methods: [Method] = [
            method("Scan", [], [Argument("scan_result", .array(ScanResult.dbusType))]) { a, c in await a.handleScan(c) },
            method("EnergyScan", [Argument("scanduration", .uint32)], [Argument("result", .array(EnergyScanResult.dbusType))]) {
                a, c in try await a.handleEnergyScan(c)
            },
            method(
                "Attach",
                [
                    Argument("networkkey", .array(.byte)), Argument("panid", .uint16), Argument("networkname", .string),
                    Argument("extpanid", .uint64), Argument("pskc", .array(.byte)), Argument("channel_mask", .uint32),
                ]
            ) { a, c in try await a.handleAttach(c) },
            method("AttachAllNodesTo", [Argument("dataset", .array(.byte))], [Argument("delay_ms", .int64)]) { a, c in
                try await a.handleAttachAllNodesTo(c)
            },
            method("Detach") { a, _ in
                await a.stopThread()
                return []
            },
            method("PermitUnsecureJoin", [Argument("port", .uint16), Argument("timeout", .uint32)]) { _, _ in
                throw OpenThreadError.notImplemented.dbusError
            },
            method(
                "JoinerStart",
                ["pskd", "provision_url", "vendor_name", "vendor_model", "vendor_sw_version", "vendor_data"].map {
                    Argument($0, .string)
                }
            ) { a, c in try await a.handleJoinerStart(c) },
            method("JoinerStop") { a, c in await a.handleJoinerStop(c) },
            method("FactoryReset") { a, c in await a.handleFactoryReset(c) },
            method("Reset") { a, _ in
                await a.hostReset()
                return []
            },
            method("AddExternalRoute", [Argument("prefix", .structure([prefix, .uint16, .byte, .boolean, .boolean]))]) {
                a, c in try await a.handleRoute(c, add: true, onMesh: false)
            },
            method("RemoveExternalRoute", [Argument("prefix", prefix)]) { a, c in
                try await a.handleRoute(c, add: false, onMesh: false)
            },
            method(
                "AddOnMeshPrefix",
                [Argument("prefix", .structure([prefix, .uint16, .byte] + Array(repeating: .boolean, count: 9)))]
            ) { a, c in try await a.handleRoute(c, add: true, onMesh: true) },
            method("RemoveOnMeshPrefix", [Argument("prefix", prefix)]) { a, c in
                try await a.handleRoute(c, add: false, onMesh: true)
            },
            method("SetBorderAgentEnabled", [Argument("enable", .boolean)]) { a, c in
                try await a.handleSetBorderAgentEnabled(c)
            },
            method("UpdateVendorMeshCopTxtEntries", [Argument("update", .array(VendorTXTEntry.dbusType))]) { a, c in
                try await a.handleUpdateVendorTXT(c)
            },
            method("GetProperties", [Argument("properties", .array(.string))], [Argument("values", .array(.variant))]) {
                a, c in try await a.handleGetProperties(c)
            },
            method("LeaveNetwork") { a, c in try await a.handleLeaveNetwork(c) },
            method("SetNat64Enabled", [Argument("enable", .boolean)]) { a, c in try await a.handleSetNat64Enabled(c) },
            method("ActivateEphemeralKeyMode", [Argument("lifetime", .uint32)], [Argument("epskc", .string)]) { a, c in
                try await a.handleActivateEphemeralKeyMode(c)
            },
            method("DeactivateEphemeralKeyMode", [Argument("retain_active_session", .boolean)]) { a, c in
                try await a.handleDeactivateEphemeralKeyMode(c)
            },
            // Registered by the code, missing from introspect.xml.
            method("SetThreadEnabled", [Argument("enable", .boolean)]) { a, c in try await a.handleSetThreadEnabled(c) },
            method("Join", [Argument("active_dataset_tlvs", .array(.byte))]) { a, c in try await a.handleJoin(c) },
        ]
        let properties = PropertyTable.all.map { declared in
            let name = declared.name.rawValue
            let getter: @Sendable () async throws -> DBusValue = { [weak self] in
                guard let self else { throw DBusError(.failed, "the simulated agent is gone") }
                return try await self.readForBuiltInHandler(name)
            }
            return Property(
                declared.name, type: declared.type, emitsChanged: declared.emitsChanged, get: getter,
                set: declared.writable ? { @Sendable _, _ in throw OpenThreadError.notFound.dbusError } : nil)
        }
        let agent = Interface(
            OTBRNames.interface, methods: methods, properties: properties,
            signals: [SignalDeclaration(OTBRNames.readySignal)])
        let dictionary = SignatureType.dictionary(key: .string, value: .variant)
        let propertiesInterface = Interface(
            .properties,
            methods: [
                method("Get", [Argument("interface", .string), Argument("property", .string)], [Argument("value", .variant)]) {
                    a, c in try await a.handleGet(c)
                },
                method("GetAll", [Argument("interface", .string)], [Argument("properties", dictionary)]) { a, c in
                    try await a.handleGetAll(c)
                },
                method("Set", [Argument("interface", .string), Argument("property", .string), Argument("value", .variant)]) {
                    a, c in try await a.handleSet(c)
                },
            ],
            signals: [
                SignalDeclaration(
                    "PropertiesChanged",
                    arguments: [
                        Argument("interface", .string), Argument("changed_properties", dictionary),
                        Argument("invalidated_properties", .array(.string)),
                    ]),
            ])
        return [agent, propertiesInterface]
    }

    private func readForBuiltInHandler(_ name: String) throws -> DBusValue {
        do { return try propertyValue(name) } catch { throw error.dbusError }
    }
}
