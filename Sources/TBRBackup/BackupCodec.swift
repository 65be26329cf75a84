import Foundation
package import MeshCoP

/// Contents to and from a sealed backup file: JSON inside ``BackupFile``.
package enum BackupCodec {
    /// `contents` as a backup file sealed with `passphrase`.
    /// - Throws: ``BackupFileError``.
    package static func seal(_ contents: BackupContents, passphrase: [UInt8], cost: LibCrypto.ScryptCost = BackupFile.defaultCost) throws(BackupFileError)
        -> [UInt8]
    {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json: Data
        do { json = try encoder.encode(contents) } catch { throw .unreadableContents("\(error)") }
        return try BackupFile.seal(Array(json), passphrase: passphrase, cost: cost)
    }

    /// The contents of backup `file`, opened with `passphrase`.
    /// - Throws: ``BackupFileError``.
    package static func open(_ file: [UInt8], passphrase: [UInt8]) throws(BackupFileError) -> BackupContents {
        try decode(try BackupFile.open(file, passphrase: passphrase))
    }

    /// The contents from the JSON `plaintext` of an opened backup (fuzzed: fuzz/run.sh backup).
    /// - Throws: ``BackupFileError/newerContents(_:)`` or `.unreadableContents`.
    package static func decode(_ plaintext: [UInt8]) throws(BackupFileError) -> BackupContents {
        struct Schema: Decodable { var schema: Int }
        let data = Data(plaintext)
        let schema: Schema
        do { schema = try JSONDecoder().decode(Schema.self, from: data) } catch { throw .unreadableContents("it is not a JSON object with a schema") }
        guard schema.schema <= BackupContents.currentSchema else { throw .newerContents(schema.schema) }
        do {
            return try JSONDecoder().decode(BackupContents.self, from: data)
        } catch let DecodingError.keyNotFound(key, context) {
            throw .unreadableContents("\((context.codingPath + [key]).map(\.stringValue).joined(separator: ".")) is missing")
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context) {
            throw .unreadableContents("\(context.codingPath.map(\.stringValue).joined(separator: ".")) has the wrong type")
        } catch {
            throw .unreadableContents("it is not valid JSON")
        }
    }
}
