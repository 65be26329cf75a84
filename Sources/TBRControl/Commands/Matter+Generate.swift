import MatterOnboarding
import TBRCommandLine

extension Matter {
    /// `tbrctl matter generate --vendor-id V --product-id P --discriminator D --passcode N|random
    /// [--flow F] [--discovery LIST]`: prints a device's QR code and manual pairing code.
    struct Generate: ControlCommand {
        static let configuration = CommandConfiguration(
            name: "generate",
            abstract: "Make the QR code and manual pairing code of a Matter device.",
            discussion: """
                Prints the QR code payload (MT:…) and the manual pairing code, the 21-digit form when the \
                flow is not standard. Both contain the passcode: that is the point of the command.

                A value that is not a number or a known word exits 64. A number the Matter specification \
                forbids exits 65 naming the rule: a passcode outside 00000001 to 99999998 or one of \
                00000000, 11111111 … 99999999, 12345678 and 87654321; a discriminator above 4095; a vendor \
                ID above 0xFFF4 (test vendors 0xFFF1 to 0xFFF4 are allowed); product ID 0 with a vendor \
                ID other than 0; no discovery capability. --passcode random picks a valid passcode from \
                the system's CSPRNG.
                """)
        static let arguments: [ArgumentSpec] = [
            .option("vendor-id", valueName: "V", help: "Vendor ID, decimal or hex with 0x (0xFFF1 to 0xFFF4 for tests).", required: true),
            .option("product-id", valueName: "P", help: "Product ID, decimal or hex with 0x.", required: true),
            .option("discriminator", valueName: "D", help: "The 12-bit discriminator, 0 to 4095 (decimal or 0x hex).", required: true),
            .option(
                "passcode", valueName: "N|random", help: "Setup passcode, 00000001 to 99999998, or random.",
                required: true),
            .option(
                "flow", valueName: "standard|user-intent|custom", help: "How the device enters commissioning mode.",
                default: "standard"),
            .option(
                "discovery", valueName: "LIST",
                help: "Comma list of soft-ap, ble, on-network, wifi-paf: how a commissioner finds the device.",
                default: "ble"),
        ]

        let vendorID: UInt64
        let productID: UInt64
        let discriminator: UInt64
        let passcode: MatterArguments.PasscodeChoice
        let flow: CommissioningFlow
        let discovery: DiscoveryCapabilities

        init(_ values: ParsedValues) throws(UsageError) {
            vendorID = try values.required("vendor-id", MatterArguments.number)
            productID = try values.required("product-id", MatterArguments.number)
            discriminator = try values.required("discriminator", MatterArguments.number)
            passcode = try values.required("passcode", MatterArguments.passcode)
            flow = try values.required("flow", MatterArguments.flow)
            discovery = try values.required("discovery", MatterArguments.discovery)
        }

        /// The JSON output.
        struct Output: Encodable {
            var qrCode: String
            var manualCode: String
        }

        func run(in context: CommandContext) async throws -> ExitCode {
            let payload = try payload()
            let output: Output
            do {
                output = Output(qrCode: try payload.qrCode(), manualCode: try payload.manualCode())
            } catch {
                throw ControlError.dataError(error.description)
            }
            if context.json {
                try context.writeJSON(output)
            } else {
                context.write(TextTable.fields([("QR code", output.qrCode), ("Manual code", output.manualCode)]))
            }
            return .success
        }

        /// The payload the options describe, or the first field too large for its bits (65).
        private func payload() throws(ControlError) -> SetupPayload {
            func tooLarge(_ rule: String, _ what: String, _ bits: Int) -> ControlError {
                .dataError("the payload breaks the \(rule) rule: the \(what) does not fit in \(bits) bits")
            }
            guard let vendor = UInt16(exactly: vendorID) else { throw tooLarge("vendor-id", "vendor ID", 16) }
            guard let product = UInt16(exactly: productID) else { throw tooLarge("product-id", "product ID", 16) }
            guard let discriminator = UInt16(exactly: discriminator) else {
                throw tooLarge("discriminator", "discriminator", 12)
            }
            let passcode: Passcode = switch self.passcode {
            case .random: Passcode.random()
            case .number(let n): Passcode(unchecked: UInt32(exactly: n) ?? .max)
            }
            return SetupPayload(
                vendorID: VendorID(vendor), productID: ProductID(product), commissioningFlow: flow,
                discoveryCapabilities: discovery, discriminator: .long(discriminator), passcode: passcode)
        }
    }
}
