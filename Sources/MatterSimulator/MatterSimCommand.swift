import TBRCommandLine

/// `matter-sim`: the command line, declared once; help is generated from it.
struct MatterSimCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "matter-sim",
        abstract: "A simulated python-matter-server: its WebSocket API on ws://HOST:PORT/ws, with simulated Matter devices.",
        discussion: """
            Speaks python-matter-server 8.1.2's WebSocket API (schema 11) with its messages, error codes and \
            ordering of results and events, for the demo and the tests, without radio hardware. Prints "ready \
            ws://HOST:PORT/ws" on standard output once it listens, and runs until SIGTERM or SIGINT. See \
            docs/matter-sim.md.

            Each --device describes one device it can find, as words: \(SimulatedDevice.grammar). Without \
            --device, any valid setup code is a device that is there and accepts its passcode.

            Exit status: 0 stopped by a signal, 64 usage error, 69 cannot listen.
            """,
        version: MatterSimulatorMain.version,
        manual: ManualInfo(section: "1", seeAlso: ["tbrd(8)", "tbrctl(1)", "otbr-sim(1)"]))

    static let arguments: [ArgumentSpec] = [
        .option("listen-address", valueName: "ADDRESS", help: "The address to listen on.", default: "127.0.0.1"),
        .option("port", valueName: "PORT", help: "The TCP port (0: a free one, shown on the ready line).", default: "5580"),
        .option(
            "device", valueName: "WORDS", help: "A device it can find (see above); repeat for several.", repeatable: true),
        .option("step-ms", valueName: "MS", help: "Milliseconds a step of a device's work takes, unless it says delay-ms.", default: "100"),
        .option("schema-version", valueName: "N", help: "The schema version it announces.", default: "11"),
        .flag(
            "bluetooth",
            help: "Model a server with a Bluetooth adapter: bluetooth_enabled is true and BLE commissioning works (it needs a Thread dataset)."),
        .flag("verbose", help: "Log at debug level on standard error (setup codes and datasets are never logged)."),
    ]

    let configuration: MatterSimulatorConfiguration

    init(_ values: ParsedValues) throws(UsageError) {
        var c = MatterSimulatorConfiguration()
        c.listenAddress = values.string("listen-address") ?? c.listenAddress
        c.port = try values.required("port", as: UInt16.self)
        c.step = .milliseconds(Int64(try values.required("step-ms", as: UInt32.self)))
        c.schemaVersion = Int64(try values.required("schema-version", as: UInt16.self))
        for words in values.strings("device") {
            do throws(SimulatedDeviceError) {
                c.devices.append(try SimulatedDevice(parsing: words))
            } catch {
                throw UsageError("invalid value '\(words)' for '--device': \(error.message)")
            }
        }
        c.bluetooth = values.flag("bluetooth")
        c.verbose = values.flag("verbose")
        configuration = c
    }

    func validate() throws(UsageError) {
        guard !configuration.listenAddress.isEmpty else { throw UsageError("--listen-address must not be empty") }
    }
}
