import Glibc
import TBRBackup
import TBRCommandLine
import TBRFoundation

/// `tbrctl backup`: backups of the home's Thread side (issue 48). Its commands are the
/// `Backup+….swift` files beside this one.
struct Backup: CommandGroup {
    static let configuration = CommandConfiguration(
        name: "backup",
        abstract: "Make, show and restore backups of the home's Thread networks, structures and tokens.",
        discussion: """
            A backup holds everything needed to rebuild the home's Thread side on a new host: structures \
            with their routers, policy, recovery and rooms, each structure's network directory with its \
            credentials, each router's Active dataset as read when it was made, the Matter nodes' records \
            and the API tokens' hashes. It is sealed with a passphrase (scrypt, then AES-256-GCM): without \
            the passphrase it is unreadable, and a changed byte is refused. docs/operations.md, "Backups \
            and recovery", says what is in it byte by byte and how to move a home to a new host.
            """,
        subcommands: [Create.self, Show.self, Restore.self])

    /// `--passphrase-file F`, shared by the three commands.
    static let passphraseFile = ArgumentSpec.option(
        "passphrase-file", valueName: "FILE",
        help: "Read the passphrase from the first line of FILE (else it is asked on the terminal, never taken as an argument).")

    /// The passphrase from `file`'s first line, or asked on the terminal (twice when `confirming`).
    static func passphrase(file: String?, confirming: Bool) throws -> [UInt8] {
        if let file {
            let bytes: [UInt8]
            do { bytes = try FileDescriptorIO.readFile(atPath: file, limit: 4096) } catch {
                throw ControlError.dataError("cannot read the passphrase file \(Quoted(file)): \(error)")
            }
            let line = BackupFile.passphrase(fromFile: bytes)
            guard !line.isEmpty else { throw ControlError.dataError("the passphrase file \(Quoted(file)) is empty") }
            return line
        }
        let first = try Terminal.readSecret(prompt: "Backup passphrase: ")
        if confirming {
            guard try Terminal.readSecret(prompt: "Again: ") == first else { throw ControlError.dataError("the two passphrases differ") }
        }
        return first
    }

    /// The backup file at `path`, at most 64 MiB and a header.
    static func read(_ path: String) throws -> [UInt8] {
        do { return try FileDescriptorIO.readFile(atPath: path, limit: Int(BackupFile.maximumSealedLength) + BackupFile.headerLength + 1) } catch {
            throw ControlError(exitCode: .ioError, message: "cannot read the backup \(Quoted(path)): \(error)")
        }
    }

    /// The contents of backup `file`, opened here: each way it can be wrong is its own sentence and exit
    /// status (65 a damaged, truncated or newer file; 77 a wrong passphrase), before anything is sent.
    static func open(_ file: [UInt8], passphrase: [UInt8], path: String) throws -> BackupContents {
        do { return try BackupCodec.open(file, passphrase: passphrase) } catch {
            throw ControlError(exitCode: ExitCode(error.exitCode), message: "\(path): \(error); nothing was changed")
        }
    }

    /// The summary as text.
    static func describe(_ s: BackupSummary, context: CommandContext) {
        context.write("made \(s.createdAt) on \(s.host.isEmpty ? "an unnamed host" : s.host) by tbrd \(s.tbrdVersion) (format \(s.format))")
        context.write("structures: \(s.structures.isEmpty ? "none" : s.structures.joined(separator: ", "))")
        context.write("routers: \(s.routers) (\(s.routersWithDataset) with an Active dataset read)")
        context.write("Matter nodes: \(s.matterNodes); API tokens: \(s.tokens)")
        if s.networks.isEmpty { return }
        let rows = s.networks.map {
            [$0.structure, $0.name, $0.extPanId, $0.credentials ? "held" : "not held", $0.preferred ? "preferred" : ""]
        }
        context.write(TextTable.render(header: ["STRUCTURE", "NETWORK", "EXT PAN ID", "CREDENTIALS", ""], rows: rows))
    }
}

/// Reading a secret from the controlling terminal with its echo off.
enum Terminal {
    static func readSecret(prompt: String) throws -> [UInt8] {
        let fd = open("/dev/tty", O_RDWR | O_CLOEXEC)
        guard fd >= 0 else {
            throw ControlError(exitCode: .usage, message: "no terminal to ask the passphrase on; give --passphrase-file FILE")
        }
        defer { close(fd) }
        var saved = termios()
        let isTerminal = tcgetattr(fd, &saved) == 0
        if isTerminal {
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ECHO)
            _ = tcsetattr(fd, TCSAFLUSH, &quiet)
        }
        defer { if isTerminal { _ = tcsetattr(fd, TCSAFLUSH, &saved) } }
        FileDescriptorIO.write(Array(prompt.utf8), to: fd)
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while read(fd, &byte, 1) == 1, byte != 0x0A, line.count < 4096 { line.append(byte) }
        FileDescriptorIO.write([0x0A], to: fd)
        if line.last == 0x0D { line.removeLast() }
        return line
    }
}
