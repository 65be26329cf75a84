package import MeshCoP
import TBRFoundation

/// A backup file: a fixed header, then the contents (JSON) encrypted and authenticated with AES-256-GCM
/// under a key derived from a passphrase with scrypt. The header is authenticated too (GCM's associated
/// data), so no byte of the file can change unnoticed. docs/operations.md ("The backup file, byte by
/// byte") is the layout's reference:
///
/// ```
/// offset size
///  0      8   magic "TBRDBKUP"
///  8      2   format version, big-endian (1)
/// 10      1   key derivation: 1 = scrypt
/// 11      1   log2 N      12  4  r      16  4  p          (scrypt's cost, big-endian)
/// 20     16   salt
/// 36     12   nonce
/// 48     32   passphrase check: SHA-256 of bytes 32…63 of the derived key
/// 80      8   length L of what follows, big-endian
/// 88      L   AES-256-GCM ciphertext of the contents, then its 16-byte tag
/// ```
///
/// scrypt derives 64 bytes: the first 32 are the AES key, the last 32 only make the passphrase check (so a
/// wrong passphrase is told apart from a changed byte; it tells an attacker nothing the tag does not).
package enum BackupFile {
    package static let magic = Array("TBRDBKUP".utf8)
    /// The format this tbrd writes; it reads this one only.
    package static let formatVersion: UInt16 = 1
    package static let headerLength = 88
    /// The cost new backups are sealed with: 32 MiB and about 0.1 s on a small machine.
    package static let defaultCost = LibCrypto.ScryptCost(log2N: 15, r: 8, p: 1)
    /// The most a file may ask of scrypt (a hostile header must not take the machine's memory): 256 MiB.
    package static let maximumCostMemory: UInt64 = 256 << 20
    /// The largest contents read: 64 MiB.
    package static let maximumSealedLength: UInt64 = 64 << 20
    /// The shortest passphrase a backup is made with.
    package static let minimumPassphraseLength = 8

    /// The passphrase a passphrase file holds: its first line, without the line ending (tbrctl's
    /// `--passphrase-file` and tbrd's `backup-passphrase-file` read it alike).
    package static func passphrase(fromFile bytes: [UInt8]) -> [UInt8] {
        Array(bytes.prefix { $0 != 0x0A && $0 != 0x0D })
    }

    /// `contents` sealed with `passphrase`.
    /// - Throws: ``BackupFileError/weakPassphrase`` or `.crypto`.
    package static func seal(_ contents: [UInt8], passphrase: [UInt8], cost: LibCrypto.ScryptCost = defaultCost) throws(BackupFileError) -> [UInt8] {
        guard passphrase.count >= minimumPassphraseLength else { throw .weakPassphrase }
        do {
            let salt = try LibCrypto.randomBytes(16)
            let nonce = try LibCrypto.randomBytes(12)
            let derived = try LibCrypto.scrypt(passphrase: passphrase, salt: salt, cost: cost, count: 64)
            var header = magic
            header += bigEndian(UInt64(formatVersion), bytes: 2)
            header.append(1)
            header.append(cost.log2N)
            header += bigEndian(UInt64(cost.r), bytes: 4) + bigEndian(UInt64(cost.p), bytes: 4)
            header += salt + nonce
            header += try LibCrypto.sha256(Array(derived[32..<64]))
            header += bigEndian(UInt64(contents.count + 16), bytes: 8)
            return header + (try LibCrypto.sealAES256GCM(contents, key: Array(derived[0..<32]), nonce: nonce, associated: header))
        } catch {
            throw .crypto(error)
        }
    }

    /// The contents of `file`, opened with `passphrase`.
    /// - Throws: ``BackupFileError``: each way a file can be wrong has its own sentence.
    package static func open(_ file: [UInt8], passphrase: [UInt8]) throws(BackupFileError) -> [UInt8] {
        let header = try readHeader(file)
        let derived: [UInt8]
        do {
            derived = try LibCrypto.scrypt(passphrase: passphrase, salt: header.salt, cost: header.cost, count: 64)
            guard try LibCrypto.sha256(Array(derived[32..<64])) == header.check else { throw BackupFileError.wrongPassphrase }
        } catch let error as BackupFileError {
            throw error
        } catch {
            throw .crypto(error as? CryptoError ?? CryptoError(function: "scrypt", detail: "\(error)"))
        }
        let opened: [UInt8]?
        do {
            opened = try LibCrypto.openAES256GCM(
                Array(file[headerLength...]), key: Array(derived[0..<32]), nonce: header.nonce, associated: Array(file[0..<headerLength]))
        } catch {
            throw .crypto(error)
        }
        guard let opened else { throw .tampered }
        return opened
    }

    /// The header's fields, once every check that needs no key has passed.
    package struct Header: Sendable, Hashable {
        package var version: UInt16
        package var cost: LibCrypto.ScryptCost
        package var salt: [UInt8]
        package var nonce: [UInt8]
        package var check: [UInt8]
        package var sealedLength: UInt64
    }

    /// The header of `file`.
    /// - Throws: ``BackupFileError/notABackup``, `.newerFormat`, `.badHeader`, `.truncated` or `.trailingBytes`.
    package static func readHeader(_ file: [UInt8]) throws(BackupFileError) -> Header {
        guard file.count >= magic.count, Array(file.prefix(magic.count)) == magic else {
            if file.isEmpty || magic.starts(with: file) { throw .truncated(expected: headerLength, actual: file.count) }
            throw .notABackup
        }
        guard file.count >= 10 else { throw .truncated(expected: headerLength, actual: file.count) }
        let version = UInt16(file[8]) << 8 | UInt16(file[9])
        guard version <= formatVersion else { throw .newerFormat(Int(version)) }
        guard version == formatVersion else { throw .badHeader("format version 0 does not exist") }
        guard file.count >= headerLength else { throw .truncated(expected: headerLength, actual: file.count) }
        guard file[10] == 1 else { throw .badHeader("key derivation \(file[10]) is not scrypt (1)") }
        let cost = LibCrypto.ScryptCost(log2N: file[11], r: UInt32(number(file, 12, 4)), p: UInt32(number(file, 16, 4)))
        guard (10...22).contains(cost.log2N), (1...32).contains(cost.r), (1...16).contains(cost.p), cost.memoryBytes <= maximumCostMemory else {
            throw .badHeader("its scrypt cost (N = 2^\(cost.log2N), r = \(cost.r), p = \(cost.p)) is outside what tbrd accepts")
        }
        let length = number(file, 80, 8)
        guard length >= 16, length <= maximumSealedLength else { throw .badHeader("its length field (\(length)) is impossible") }
        let expected = UInt64(headerLength) + length
        if UInt64(file.count) < expected { throw .truncated(expected: Int(expected), actual: file.count) }
        if UInt64(file.count) > expected { throw .trailingBytes(expected: Int(expected), actual: file.count) }
        return Header(
            version: version, cost: cost, salt: Array(file[20..<36]), nonce: Array(file[36..<48]), check: Array(file[48..<80]),
            sealedLength: length)
    }

    private static func number(_ bytes: [UInt8], _ offset: Int, _ count: Int) -> UInt64 {
        bytes[offset..<offset + count].reduce(0) { $0 << 8 | UInt64($1) }
    }

    private static func bigEndian(_ value: UInt64, bytes: Int) -> [UInt8] {
        (0..<bytes).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
    }
}

/// Why a backup file cannot be read or made. Each is one sentence for a person; ``exitCode`` is the
/// sysexits code tbrctl exits with (65 for a file that is wrong, 77 for a passphrase that is).
package enum BackupFileError: Error, Sendable, Hashable, CustomStringConvertible {
    case notABackup
    case truncated(expected: Int, actual: Int)
    case trailingBytes(expected: Int, actual: Int)
    case newerFormat(Int)
    case badHeader(String)
    case wrongPassphrase
    case tampered
    case unreadableContents(String)
    case newerContents(Int)
    case weakPassphrase
    case crypto(CryptoError)

    package var description: String {
        switch self {
        case .notABackup: "this is not a tbrd backup (it does not begin with TBRDBKUP)"
        case .truncated(let expected, let actual):
            "the backup is truncated: it has \(actual) bytes and should have \(expected == BackupFile.headerLength ? "at least \(expected)" : "\(expected)")"
        case .trailingBytes(let expected, let actual): "the backup has \(actual - expected) bytes more than its header says (\(expected)): it was changed"
        case .newerFormat(let version):
            "the backup is in format \(version), made by a newer tbrd; this tbrd reads format \(BackupFile.formatVersion) only"
        case .badHeader(let why): "the backup's header is damaged: \(why)"
        case .wrongPassphrase: "the passphrase is wrong (or the backup's header was changed)"
        case .tampered: "the backup was changed or is damaged: its contents do not authenticate with this passphrase"
        case .unreadableContents(let why): "the backup authenticates but its contents cannot be read: \(why)"
        case .newerContents(let schema):
            "the backup's contents are in layout \(schema), made by a newer tbrd; this tbrd reads layout \(BackupContents.currentSchema)"
        case .weakPassphrase: "a backup passphrase needs at least \(BackupFile.minimumPassphraseLength) characters"
        case .crypto(let error): "libcrypto failed: \(error)"
        }
    }

    /// 77 (`EX_NOPERM`) for a wrong passphrase, 70 (`EX_SOFTWARE`) when libcrypto fails, else 65 (`EX_DATAERR`).
    package var exitCode: Int32 {
        switch self {
        case .wrongPassphrase: 77
        case .crypto: 70
        default: 65
        }
    }
}
