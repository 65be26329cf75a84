import TBRBackup
import TBRCommandLine
import TBRFoundation

extension Backup {
    /// `tbrctl backup create [--output FILE] [--passphrase-file F]`.
    struct Create: ControlCommand {
        static let configuration = CommandConfiguration(
            name: "create",
            abstract: "Write a backup of the home's Thread side to a file (needs tbrd; root or group tbrd-admin).",
            discussion: """
                tbrd reads each router's Active dataset now and seals everything with the passphrase (at \
                least 8 characters; asked twice on the terminal unless --passphrase-file gives it). tbrctl \
                opens the result again to check it, then writes it whole or not at all, mode 0600 (it holds \
                network keys), to FILE (default: tbrd-backup-YYYYMMDDTHHMMSSZ.tbrdbackup here). With --json: \
                {file, backup: {format, createdAt, host, tbrdVersion, structures, routers, routersWithDataset, \
                matterNodes, tokens, networks: [{structure, name, extPanId, credentials, preferred}]}}, never \
                a secret. Exit status: 0; 65 a passphrase shorter than 8 characters; 74 the file cannot be \
                written; 69 no tbrd; 77 not allowed.
                """)
        static let arguments: [ArgumentSpec] = [
            .option("output", valueName: "FILE", help: "Where to write the backup."),
            Backup.passphraseFile,
        ]

        let output: String?
        let passphraseFile: String?

        init(_ values: ParsedValues) {
            output = values.string("output")
            passphraseFile = values.string(Backup.passphraseFile.name)
        }

        func run(in context: CommandContext) async throws -> ExitCode {
            let passphrase = try Backup.passphrase(file: passphraseFile, confirming: true)
            guard passphrase.count >= BackupFile.minimumPassphraseLength else { throw ControlError.dataError(BackupFileError.weakPassphrase.description) }
            let file = try await RouterSession.withTbrd(context, for: "'backup create'") { tbrd in try await tbrd.createBackup(passphrase: passphrase) }
            let path = output ?? "tbrd-backup-" + CompactUTC.stamp(context.clock.wallTime()) + ".tbrdbackup"
            let contents = try Backup.open(file, passphrase: passphrase, path: "the backup tbrd made")
            do { try AtomicFile.write(file, to: path) } catch {
                throw ControlError(exitCode: .ioError, message: "cannot write the backup to \(Quoted(path)): \(error)")
            }
            let summary = BackupSummary(contents, format: Int(BackupFile.formatVersion))
            if context.json {
                try context.writeJSON(Written(file: path, backup: summary))
            } else {
                context.write("wrote \(path) (\(file.count) bytes)")
                Backup.describe(summary, context: context)
            }
            return .success
        }

        struct Written: Encodable {
            var file: String
            var backup: BackupSummary
        }
    }
}
