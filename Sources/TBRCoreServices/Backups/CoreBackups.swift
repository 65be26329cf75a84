package import BorderRouterService
import Glibc
package import Store
package import TBRBackup
package import TBRCore
package import TBRFoundation

/// Backups of the home's Thread side (TBRCore's ``TBRCore/BackupCore``, issue 48): made on request and,
/// with a backup directory, after each change a restore would need; restored onto a tbrd with no state,
/// or in place of its state. The file's layout is ``TBRBackup/BackupFile``'s (docs/operations.md).
package actor CoreBackups {
    /// Where and how automatic backups are written (tbrd.conf's `backup-*` settings).
    package struct Schedule: Sendable {
        package var directory: String
        package var keep: Int
        package var passphrase: [UInt8]
        /// The least time between two automatic backups.
        package var interval: Duration

        package init(directory: String, keep: Int, passphrase: [UInt8], interval: Duration) {
            self.directory = directory
            self.keep = keep
            self.passphrase = passphrase
            self.interval = interval
        }
    }

    package let service: BorderRouterService
    package let store: TBRStore
    package let structures: CoreStructures
    package let structureStore: PersistentStructureStore
    package let recovery: RouterRecovery
    package let schedule: Schedule?
    /// Where the state a `--replace` restore replaces is written first when there is no schedule.
    package let stateDirectory: String
    package let version: String
    package let clock: any TBRClock
    package let logger: Logger
    /// Each automatic backup written, by path (for tests and the adapters).
    package nonisolated let written = EventBroadcaster<String>()
    /// The changes a backup follows, subscribed before anything runs.
    private let changes: EventStream<StructureSignal>

    package init(
        service: BorderRouterService, store: TBRStore, structures: CoreStructures, structureStore: PersistentStructureStore, recovery: RouterRecovery,
        schedule: Schedule?, stateDirectory: String, version: String, clock: any TBRClock, logger: Logger
    ) {
        self.service = service
        self.store = store
        self.structures = structures
        self.structureStore = structureStore
        self.recovery = recovery
        self.schedule = schedule
        self.stateDirectory = stateDirectory
        self.version = version
        self.clock = clock
        self.logger = logger
        self.changes = structures.signals.subscribe(bufferLimit: 1024)
    }

    // MARK: making one

    /// The contents a backup holds now: the store's snapshot and each online router's Active dataset.
    package func contents() async throws -> BackupContents {
        let state: (structures: [BackupContents.Structure], routers: [BackupContents.Router], tokens: [BackupContents.Token])
        do { state = try await store.backupState() } catch { throw ServiceError.core(error) }
        var routers = state.routers
        for i in routers.indices {
            guard let id = DeviceID(rawValue: routers[i].id), await service.deviceIDs().contains(id),
                let tlvs = try? await service.datasetTLVs(of: id, pending: false), !tlvs.isEmpty
            else { continue }
            routers[i].activeDataset = Hex.encode(tlvs)
        }
        return BackupContents(
            createdAt: WallTime(secondsSinceEpoch: clock.wallTime()).description, host: Self.hostName(), tbrdVersion: version,
            structures: state.structures, routers: routers, tokens: state.tokens)
    }

    static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A sealed backup of now.
    /// - Throws: ``TBRCore/CoreError``: `permissionDenied` for a passphrase too short, `failed` otherwise.
    package func sealedBackup(passphrase: [UInt8]) async throws -> [UInt8] {
        let contents = try await contents()
        do { return try BackupCodec.seal(contents, passphrase: passphrase) } catch { throw Self.coreError(error) }
    }

    /// The core's error for a backup file's: a wrong or short passphrase is `permissionDenied` (77), a
    /// file that is wrong `invalidArgument` (65), libcrypto failing `failed`.
    package static func coreError(_ error: BackupFileError) -> CoreError {
        switch error.exitCode {
        case 77: CoreError(.permissionDenied, error.description)
        case 65: CoreError(.invalidArgument, error.description)
        default: CoreError(.failed, error.description)
        }
    }

    // MARK: automatic backups

    /// Writes a backup after each change a restore would need, at most once per ``Schedule/interval``,
    /// until tbrd stops; without a schedule it only drains the changes (it runs as long as tbrd). A burst
    /// of changes makes one backup at once and at most one more after the interval (the changes set one
    /// pending signal, never a queue of them).
    package func run() async {
        let changes = self.changes
        guard let schedule else {
            for await _ in changes {}
            return
        }
        let changed = WakeSignal()
        await withDiscardingTaskGroup { group in
            group.addTask {
                for await _ in changes { changed.signal() }
            }
            group.addTask {
                var last: ContinuousClock.Instant?
                while !Task.isCancelled {
                    await changed.wait()
                    if let last { try? await self.clock.sleep(until: last.advanced(by: schedule.interval)) }
                    guard !Task.isCancelled else { return }
                    last = self.clock.now()
                    await self.writeAutomatic(schedule)
                }
            }
        }
    }

    /// One automatic backup: written whole or not at all (a full disk leaves the last one as it was), then
    /// the oldest beyond ``Schedule/keep`` removed (only files named as tbrd names them).
    package func writeAutomatic(_ schedule: Schedule) async {
        let path = schedule.directory + "/" + Self.fileName(at: clock.wallTime())
        do {
            let file = try await sealedBackup(passphrase: schedule.passphrase)
            try AtomicFile.write(file, to: path)
        } catch {
            logger.error("automatic backup not written; the previous ones are kept", [("path", path), ("error", "\(error)")])
            return
        }
        logger.info("automatic backup written", [("path", path)])
        prune(schedule)
        written.publish(path)
    }

    /// `tbrd-YYYYMMDDTHHMMSSZ.tbrdbackup` for wall time `seconds` (sorting by name sorts by time).
    package static func fileName(at seconds: Double, prefix: String = "tbrd-") -> String {
        prefix + CompactUTC.stamp(seconds) + ".tbrdbackup"
    }

    /// Whether `name` is an automatic backup's name.
    package static func isAutomatic(_ name: String) -> Bool {
        name.count == "tbrd-20261207T120000Z.tbrdbackup".count && name.hasPrefix("tbrd-2") && name.hasSuffix("Z.tbrdbackup")
    }

    private func prune(_ schedule: Schedule) {
        guard let dir = opendir(schedule.directory) else { return }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if Self.isAutomatic(name) { names.append(name) }
        }
        closedir(dir)
        for name in names.sorted().dropLast(schedule.keep) {
            if unlink(schedule.directory + "/" + name) == 0 {
                logger.info("old automatic backup removed", [("path", schedule.directory + "/" + name)])
            }
        }
    }
}

extension CoreBackups: BackupCore {
    package func createBackup(passphrase: [UInt8]) async throws -> [UInt8] {
        let file = try await sealedBackup(passphrase: passphrase)
        logger.notice("backup made on request")
        return file
    }

    package func restoreBackup(_ file: [UInt8], passphrase: [UInt8], replace: Bool, dryRun: Bool) async throws -> RestoreOutcome {
        let contents: BackupContents
        do { contents = try BackupCodec.open(file, passphrase: passphrase) } catch { throw Self.coreError(error) }
        let holds: Bool
        do { holds = try await store.holdsHomeState() } catch { throw ServiceError.core(error) }
        if holds, !replace {
            throw CoreError(
                .busy, "this tbrd already holds structures, border routers on other hosts or API tokens; restore with --replace "
                    + "(its state is written as a backup first)")
        }
        if dryRun { return RestoreOutcome(restored: false, replaced: holds, previousStateBackup: nil, recovery: []) }
        var previous: String?
        if holds {
            let directory = schedule?.directory ?? stateDirectory
            let path = directory + "/" + Self.fileName(at: clock.wallTime(), prefix: "tbrd-before-restore-")
            do {
                try AtomicFile.write(try await sealedBackup(passphrase: passphrase), to: path)
            } catch {
                throw CoreError(.failed, "the state tbrd holds could not be written as a backup first, so nothing was restored: \(error)")
            }
            previous = path
        }
        let before = try await structures.allStructures()
        let replaced: TBRStore.Replaced
        do { replaced = try await store.restore(contents, replacing: holds) } catch {
            throw CoreError(.invalidArgument, "nothing was restored: \(ServiceError.core(error).message)")
        }
        try await announce(replaced, removing: before)
        logger.notice(
            "backup restored",
            [("structures", "\(contents.structures.count)"), ("routers", "\(contents.routers.count)"), ("from_host", contents.host)])
        // Routers present now with no network are offered their structure's (as its recovery says).
        var reports: [RecoveryReport] = []
        for s in contents.structures {
            for router in s.routers {
                guard let id = DeviceID(rawValue: router), let report = await recovery.check(id, joining: false) else { continue }
                reports.append(report)
            }
        }
        return RestoreOutcome(restored: true, replaced: holds, previousStateBackup: previous, recovery: reports)
    }

    /// Tells every part that keeps something of the store what the restore changed.
    private func announce(_ replaced: TBRStore.Replaced, removing before: [StructureInfo]) async throws {
        for id in replaced.remoteRouters { try? await service.removeRemoteRouter(id) }
        do { try await structureStore.restored(removing: replaced.structures) } catch { throw ServiceError.core(error) }
        for info in before { structures.signals.publish(.removed(info)) }
        let known: [KnownRouter]
        do { known = try await store.knownRouters() } catch { throw ServiceError.core(error) }
        let served = Set(await service.deviceIDs())
        for router in known where router.restURL == nil && !served.contains(router.id) {
            try? await service.rememberRouter(router.id)
        }
        await structures.serveRemoteRouters(known)
        for info in try await structures.allStructures() {
            structures.signals.publish(.added(info))
            for router in info.deviceIDs { structures.signals.publish(.routersChanged(info.id, router: router, structure: info.name)) }
        }
        await service.policySettled()
    }
}
