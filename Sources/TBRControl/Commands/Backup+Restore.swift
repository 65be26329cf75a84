import TBRBackup
import TBRCommandLine
import TBRDBusAPI
import TBRFoundation

extension Backup {
    /// `tbrctl backup restore FILE [--passphrase-file F] [--dry-run] [--replace]`.
    struct Restore: ControlCommand {
        static let configuration = CommandConfiguration(
            name: "restore",
            abstract: "Restore a backup into tbrd: on a new host, or in place of its state (root or group tbrd-admin).",
            discussion: """
                The backup is opened and checked here first: a file that is not a backup, truncated, changed \
                or from a newer tbrd exits 65, a wrong passphrase 77, and nothing is sent. tbrd then puts it in \
                place of its state in one transaction (whole or nothing). A tbrd that already holds structures, \
                border routers on other hosts or API tokens refuses (exit 75) unless --replace: its state is \
                then written as a backup first (in backup-dir, else state-dir; the path is printed). Routers \
                on this host are found again by themselves; those on other hosts are polled again. After the \
                restore, each router of a restored structure that is present and has no Active dataset is \
                offered its structure's preferred network as the structure's recovery says (ask: reported, \
                'tbrctl structure recover' joins it; auto: joined now); nothing is sent to a router that has \
                one. --dry-run checks everything and changes nothing. With --json: {restored, dryRun, \
                replaced, previousStateBackup, backup: {...as backup show...}, recovery: [{router, state, \
                network, routerNetwork, detail}]}.
                """)
        static let arguments: [ArgumentSpec] = [
            .positional("file", valueName: "FILE", help: "The backup file."),
            Backup.passphraseFile,
            .flag("dry-run", help: "Check the backup and whether tbrd would take it; change nothing."),
            .flag("replace", help: "Replace the state tbrd holds (written as a backup first)."),
        ]

        let file: String
        let passphraseFile: String?
        let dryRun: Bool
        let replace: Bool

        init(_ values: ParsedValues) throws(UsageError) {
            file = try values.required("file")
            passphraseFile = values.string(Backup.passphraseFile.name)
            dryRun = values.flag("dry-run")
            replace = values.flag("replace")
        }

        struct Report: Encodable {
            var restored: Bool
            var dryRun: Bool
            var replaced: Bool
            var previousStateBackup: String?
            var backup: BackupSummary
            var recovery: [RecoveryLine]
        }

        func run(in context: CommandContext) async throws -> ExitCode {
            let bytes = try Backup.read(file)
            let passphrase = try Backup.passphrase(file: passphraseFile, confirming: false)
            let contents = try Backup.open(bytes, passphrase: passphrase, path: file)
            let summary = BackupSummary(contents, format: Int(BackupFile.formatVersion))
            let restored = try await RouterSession.withTbrd(context, for: "'backup restore'") { tbrd in
                try await tbrd.restoreBackup(bytes, passphrase: passphrase, replace: replace, dryRun: dryRun)
            }
            let recovery = try restored.recovery.map { try RecoveryLine($0) }
            if context.json {
                try context.writeJSON(
                    Report(
                        restored: !dryRun, dryRun: dryRun, replaced: restored.replaced,
                        previousStateBackup: restored.previousBackup.isEmpty ? nil : restored.previousBackup, backup: summary, recovery: recovery))
                return .success
            }
            if dryRun {
                context.write("\(file) can be restored" + (restored.replaced ? " with --replace (tbrd's state would be written as a backup first)" : ""))
            } else {
                context.write("restored \(file)" + (restored.replaced ? "; tbrd's previous state is in \(restored.previousBackup)" : ""))
            }
            Backup.describe(summary, context: context)
            for r in recovery where r.state != .ok { context.write("\(r.router): \(r.state.rawValue): \(r.detail)") }
            return .success
        }
    }
}
