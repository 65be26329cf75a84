import TBRBackup
import TBRCommandLine
import TBRFoundation

extension Backup {
    /// `tbrctl backup show FILE [--passphrase-file F]`: what a backup holds, read here (no tbrd needed).
    struct Show: ControlCommand {
        static let configuration = CommandConfiguration(
            name: "show",
            abstract: "Show what a backup holds, without a secret (no tbrd needed).",
            discussion: """
                Opens the backup with its passphrase and prints when and where it was made, its structures, \
                routers, Matter nodes and tokens, and its networks by name and Extended PAN ID with whether \
                their credentials are held. With --json: the same as 'backup create --json' prints under \
                "backup". Exit status: 0; 65 a file that is not a backup, truncated, changed or from a newer \
                tbrd; 77 a wrong passphrase; 74 a file that cannot be read.
                """)
        static let arguments: [ArgumentSpec] = [
            .positional("file", valueName: "FILE", help: "The backup file."),
            Backup.passphraseFile,
        ]

        let file: String
        let passphraseFile: String?

        init(_ values: ParsedValues) throws(UsageError) {
            file = try values.required("file")
            passphraseFile = values.string(Backup.passphraseFile.name)
        }

        func run(in context: CommandContext) async throws -> ExitCode {
            let bytes = try Backup.read(file)
            let contents = try Backup.open(bytes, passphrase: try Backup.passphrase(file: passphraseFile, confirming: false), path: file)
            let summary = BackupSummary(contents, format: Int(BackupFile.formatVersion))
            if context.json { try context.writeJSON(summary) } else { Backup.describe(summary, context: context) }
            return .success
        }
    }
}
