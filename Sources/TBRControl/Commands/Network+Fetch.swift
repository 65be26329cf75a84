import BorderAgentDiscovery
import DBus
import DTLS
import EpskcCommissioner
import FoundationEssentials
import MDNS
import MeshCoP
import TBRCommandLine
import TBRFoundation
#if canImport(Glibc)
import Glibc
#endif

extension Network {
    /// `tbrctl network fetch --key KEY [--from TARGET] [--structure S] [--timeout SECONDS] [--output FILE]`:
    /// another border router's credentials, fetched with the ePSKc it shows.
    struct Fetch: ControlCommand {
        static let configuration = CommandConfiguration(
            name: "fetch",
            abstract: "Fetch a border router's network credentials with the ePSKc it shows.",
            discussion: """
                Acts as an ePSKc commissioner (Thread 1.4): connects to the key's DTLS port with \
                TLS_ECJPAKE_WITH_AES_128_CCM_8, the key's 9 digits as password, reads the whole Active \
                dataset (MGMT_ACTIVE_GET), and closes the session, so the router sees its key used once. \
                Any Thread 1.4 border router works: an Apple TV, a Nest hub, an otbr-agent. A literal \
                [ADDR]:PORT is fetched by this process, with no bus and no tbrd needed (mDNS, browsed \
                meanwhile, only names the source); a name is resolved and fetched by tbrd when it runs \
                (its view of mDNS, no browse to wait for; Manager1.FetchNetworkCredentials, admins only), \
                else here; --structure always goes through tbrd.

                --from is a border agent as 'tbrctl discover' names it (its mDNS instance name), \
                [ADDR]:PORT, or a managed router's id. Without it, the one border agent on the LAN that \
                publishes _meshcop-e._udp now (browsed for up to 2 s); when there are several, they are \
                listed and nothing is tried (exit 64). The key is checked (9 digits, Verhoeff check digit) \
                before anything is sent: a typo costs the router no failed try.

                Prints the network as 'tbrctl dataset show' does, the network key and PSKc <redacted> \
                unless --reveal-secrets; --json gives the fields of 'dataset decode --json' plus source \
                (address, instance, borderAgentId, vendorName, productName). --output writes the hex TLVs \
                to a new file of mode 0600 (an existing file is never overwritten). --structure stores the \
                network in that structure's network directory (tbrd, admins only; an unknown structure is \
                refused before the key is used) and prints no secret.

                Exit status: 0; 77 when the router rejected the key (the handshake failed: a router ends \
                its key after 10 failed tries); 69 when nothing listens there (no ePSKc active) or no \
                answer came within --timeout (the handshake is retransmitted meanwhile); 65 when the \
                answer is not a complete Active dataset (every problem listed) or the key is malformed; \
                64 when several routers have a key and --from is missing; 1 when the router refused. \
                Nothing is stored or written unless the whole fetch succeeded.
                """)
        static let arguments: [ArgumentSpec] = [
            .option("key", valueName: "KEY", help: "The ePSKc the router shows: 9 digits (spaces and dashes are ignored)."),
            .option("from", valueName: "TARGET", help: "The border agent: mDNS instance name, [ADDR]:PORT, or a managed router's id."),
            .option("structure", valueName: "STRUCTURE", help: "Store the network in this structure's network directory (needs tbrd)."),
            .option("timeout", valueName: "SECONDS", help: "How long to wait for the router, handshake and answer together.", default: "30"),
            .option("output", valueName: "FILE", help: "Also write the hex TLVs to FILE, a new file of mode 0600."),
            .revealSecrets,
        ]

        let keyText: String?
        let from: String?
        let structure: String?
        let timeout: Duration
        let output: String?
        let revealSecrets: Bool

        init(_ values: ParsedValues) throws(UsageError) {
            keyText = values.string("key")
            from = values.string("from")
            structure = values.string("structure")
            output = values.string("output")
            revealSecrets = values.flag(ArgumentSpec.revealSecrets.name)
            let seconds = try values.value("timeout") { (word) throws(ArgumentValueError) -> Int in
                guard let s = Int(word), s > 0, s <= 600 else {
                    throw ArgumentValueError("a timeout is a whole number of seconds from 1 to 600, such as 30")
                }
                return s
            }
            timeout = .seconds(seconds ?? 30)
        }

        func validate() throws(UsageError) {
            guard keyText != nil else { throw UsageError("give the key the router shows with --key KEY") }
        }

        func run(in context: CommandContext) async throws -> ExitCode {
            let key = try Self.key(keyText ?? "")
            // The file is made first, so that a name already taken costs the router no use of its key; it
            // is removed again when the fetch fails.
            let file = try output.map { path throws(ControlError) in try NewFile(path) }
            do {
                return try await fetchAndReport(key, file, context)
            } catch {
                file?.discard()
                throw error
            }
        }

        private func fetchAndReport(_ key: EphemeralKey, _ file: NewFile?, _ context: CommandContext) async throws -> ExitCode {
            if let structure {
                let fetched = try await RouterSession.withTbrd(context, for: "storing a network in a structure") { tbrd in
                    try await tbrd.fetchNetworkCredentials(
                        key: key, from: from, structure: structure, timeout: timeout)
                }
                return try report(fetched, file, context, stored: structure)
            }
            let fetched: FetchedNetwork
            if case .address(let address) = FetchTarget(parsing: from) {
                // A literal address needs neither tbrd nor mDNS: fetched here at once.
                fetched = try await Self.fetchAddress(address, key: key, timeout: timeout, context: context)
            } else if let viaTbrd = try await Self.throughTbrd(key: key, from: from, timeout: timeout, context: context) {
                // tbrd follows mDNS already: no browse to wait for.
                fetched = viaTbrd
            } else {
                fetched = try await Self.fetchHere(key: key, from: from, timeout: timeout, context: context)
            }
            return try report(fetched, file, context, stored: nil)
        }

        /// What to print and write once the dataset is here.
        private func report(_ fetched: FetchedNetwork, _ file: NewFile?, _ context: CommandContext, stored: String?) throws
            -> ExitCode
        {
            let dataset: OperationalDataset
            do { dataset = try OperationalDataset(bytes: fetched.tlvs) } catch {
                throw ControlError.dataError("the fetched dataset does not decode: \(error)")
            }
            try file?.write(Hex.encode(fetched.tlvs) + "\n")
            let reveal = revealSecrets && stored == nil
            if context.json {
                try context.writeJSON(FetchedNetworkJSON(dataset: dataset, source: fetched.source, structure: stored), revealSecrets: reveal)
            } else {
                let name = dataset.networkName.map { Quoted($0.printable).description } ?? "the network"
                let from = fetched.source.instance.map { Quoted($0).description } ?? fetched.source.address
                if let stored {
                    context.write("\(name) (\(dataset.extendedPANID.map(\.description) ?? "-")) from \(from) is in \(Quoted(stored))'s network directory")
                } else {
                    context.note("fetched the Active dataset of \(name) from \(from)")
                    context.write(dataset.render(revealSecrets: reveal))
                }
            }
            return .success
        }

        /// Through tbrd (Manager1.FetchNetworkCredentials), or nil when tbrd or the bus is not there.
        static func throughTbrd(key: EphemeralKey, from: String?, timeout: Duration, context: CommandContext) async throws
            -> FetchedNetwork?
        {
            guard let connection = try? await Connection(bus: context.bus) else { return nil }
            do {
                let fetched = try await TbrdBackend(connection: connection).fetchNetworkCredentials(
                    key: key, from: from, structure: nil, timeout: timeout)
                await connection.close()
                return fetched
            } catch is TbrdNotRunning {
                await connection.close()
                return nil
            } catch {
                await connection.close()
                throw error
            }
        }

        /// The fetch from a literal `[ADDR]:PORT`, in this process. mDNS is browsed meanwhile, only to
        /// describe the source (vendor, product, Border Agent ID): what it showed by the time the fetch
        /// ended is used, so it never makes the fetch slower.
        static func fetchAddress(_ address: UDPAddress, key: EphemeralKey, timeout: Duration, context: CommandContext) async throws
            -> FetchedNetwork
        {
            try await withThrowingTaskGroup(of: BorderAgentTable?.self) { group in
                group.addTask { try? await browse(for: .address(address), context) }
                let fetched: FetchedDataset
                do throws(CredentialFetchError) {
                    fetched = try await CredentialFetch.activeDataset(from: address, key: key, timeout: timeout)
                } catch {
                    group.cancelAll()
                    throw ControlError(exitCode: Self.exitCode(error), message: error.description)
                }
                group.cancelAll()
                let table = (try await group.next() ?? nil) ?? BorderAgentTable()
                let source = (try? FetchTarget.address(address).resolve(in: table.all).1) ?? FetchSource(address: address)
                return FetchedNetwork(tlvs: fetched.tlvs, source: source)
            }
        }

        /// The key as typed, checked.
        static func key(_ text: String) throws(ControlError) -> EphemeralKey {
            do { return try EphemeralKey(typed: text) } catch {
                throw ControlError.dataError("--key: \(error); nothing was sent to the router")
            }
        }

        /// The fetch in this process: mDNS through avahi-daemon when the target needs it, then the session.
        static func fetchHere(key: EphemeralKey, from: String?, timeout: Duration, context: CommandContext) async throws
            -> FetchedNetwork
        {
            var target = FetchTarget(parsing: from)
            if case .instance(let name) = target, let id = await ManagedAgents.borderAgentID(ofRouter: name, context) {
                target = .borderAgent(id, router: name)
            }
            let table = try await browse(for: target, context)
            let (address, source): (UDPAddress, FetchSource)
            do { (address, source) = try target.resolve(in: table.all) } catch {
                if case .several = error { throw ControlError(exitCode: .usage, message: error.description) }
                throw ControlError.unavailable(error.description)
            }
            do {
                let fetched = try await CredentialFetch.activeDataset(from: address, key: key, timeout: timeout)
                return FetchedNetwork(tlvs: fetched.tlvs, source: source)
            } catch {
                throw ControlError(exitCode: Self.exitCode(error), message: error.description)
            }
        }

        /// The exit status of each way a fetch fails (the same as tbrd's D-Bus errors map to).
        static func exitCode(_ error: CredentialFetchError) -> ExitCode {
            switch error {
            case .wrongKey: .permissionDenied
            case .nothingListening, .noAnswer: .unavailable
            case .incompleteDataset, .badAnswer: .dataError
            case .refused, .session, .cancelled: .failure
            }
        }

        /// What mDNS shows, browsed until the target is settled or 2 s passed. A literal address needs no
        /// mDNS: it is browsed only to describe the source, and a missing avahi-daemon is then no error.
        private static func browse(for target: FetchTarget, _ context: CommandContext) async throws -> BorderAgentTable {
            let mdns = MDNSClient()
            do { try await mdns.connect(requireDaemon: true) } catch {
                if case .address = target { return BorderAgentTable() }
                throw ControlError.unavailable("finding the border agent needs mDNS: \(error.message); or give --from [ADDR]:PORT")
            }
            let window: Duration = if case .address = target { .milliseconds(500) } else { .seconds(2) }
            let settled = Locked(BorderAgentTable())
            let browser = BorderAgentBrowser(client: mdns, clock: context.clock)
            let deadline = context.clock.now().advanced(by: window)
            _ = try? await TimeLimit.run(until: deadline, clock: context.clock) {
                await browser.run { _, table in
                    settled.withLock { $0 = table }
                    if target.isSettled(by: table.all) { withUnsafeCurrentTask { $0?.cancel() } }
                }
            }
            await mdns.close()
            return settled.withLock { $0 }
        }

    }
}

/// `--output FILE`: a file this command creates (mode 0600, never over an existing one), written once the
/// fetch succeeded, removed when it failed.
final class NewFile {
    let path: String
    private let fd: Int32

    init(_ path: String) throws(ControlError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            let reason = Errno(errno).description
            throw ControlError.failure("cannot create \(Quoted(path)) (\(reason)); an existing file is never overwritten, and nothing was sent to the router")
        }
        self.path = path
        self.fd = fd
    }

    deinit { close(fd) }

    func write(_ text: String) throws(ControlError) {
        if let code = FileDescriptorIO.writeAll(Array(text.utf8), to: fd) {
            throw ControlError.failure("cannot write \(Quoted(path)): \(Errno(code).description)")
        }
    }

    /// Removes the file again (the fetch failed).
    func discard() { unlink(path) }
}

/// A fetched network and where it came from, as either path (here or through tbrd) gives it.
struct FetchedNetwork: Sendable {
    var tlvs: [UInt8]
    var source: FetchSource
}

/// `tbrctl --json network fetch`: the fields of `dataset decode --json`, plus `source` (and `structure`
/// when it was stored).
struct FetchedNetworkJSON: Encodable {
    var dataset: OperationalDataset
    var source: FetchSource
    var structure: String?

    private enum CodingKeys: String, CodingKey { case source, structure }

    func encode(to encoder: any Encoder) throws {
        try dataset.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(source, forKey: .source)
        try container.encodeIfPresent(structure, forKey: .structure)
    }
}
