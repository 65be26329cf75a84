import Glibc
import TBRBackup
import TBRCoreServices
import TBRFoundation

// tbrd.conf's backup-* settings, checked at start (issue 48): a passphrase file anyone else can read, or
// that someone else owns, stops tbrd with the reason.

extension DaemonConfiguration {
    /// The automatic backups' schedule, or nil when `backup-dir` is unset.
    /// - Throws: ``DaemonStartError/backupUnusable(_:)`` saying what is wrong.
    func backupSchedule() throws(DaemonStartError) -> CoreBackups.Schedule? {
        guard let directory = backupDirectory else {
            if backupPassphraseFile != nil { throw .backupUnusable("backup-passphrase-file is set but backup-dir is not") }
            return nil
        }
        guard let path = backupPassphraseFile else {
            throw .backupUnusable("backup-dir is set but backup-passphrase-file is not: a backup holds network keys and is never written unsealed")
        }
        var info = stat()
        guard stat(directory, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
            throw .backupUnusable("backup-dir \(directory) is not a directory tbrd can reach")
        }
        guard access(directory, W_OK | X_OK) == 0 else { throw .backupUnusable("backup-dir \(directory) is not writable by tbrd (\(Errno(errno)))") }
        let bytes: [UInt8]
        switch SecretFile.read(path, setting: "backup-passphrase-file") {
        case .success(let read): bytes = read
        case .failure(let refusal): throw .backupUnusable(refusal.description)
        }
        let passphrase = BackupFile.passphrase(fromFile: bytes)
        guard passphrase.count >= 8 else { throw .backupUnusable("the passphrase in \(path) is shorter than 8 characters") }
        return CoreBackups.Schedule(directory: directory, keep: backupKeep, passphrase: passphrase, interval: .seconds(backupInterval))
    }
}
