import MeshCoP
import TBRBackup
import Testing

/// A backup file refuses every way it can be wrong with its own sentence, and opens only whole and with
/// its passphrase (issue 48, "Hostile backups").
@Suite struct BackupFileTests {
    /// A cheap cost keeps the hundreds of openings below fast; the layout is the same.
    static let cost = LibCrypto.ScryptCost(log2N: 10, r: 8, p: 1)
    static let passphrase = Array("correct horse battery".utf8)

    static func contents() -> BackupContents {
        BackupContents(
            createdAt: "2026-12-07T12:00:00Z", host: "old-host", tbrdVersion: "test",
            structures: [
                .init(
                    id: 1, name: "Home", createdAt: 1, internetAccessOption: "all", preferredNetwork: "1111111122222222", settingsUpdatedAt: 2,
                    recovery: "ask", routers: ["wpan0"], rooms: ["Kitchen"],
                    networks: [
                        .init(
                            extPanId: "1111111122222222", name: "Home-Net", channel: 15, activeTimestamp: 1, dataset: "0e080000000000010000",
                            source: "added", sourceDetail: "", firstSeenAt: 1, lastSeenAt: 2, mdnsSeenAt: nil)
                    ],
                    matterNodes: [
                        .init(
                            nodeId: 7, vendorId: 0xFFF1, productId: 0x8000, commissionedAt: 3, sessionId: nil, payloadId: nil, extPanId: nil,
                            backend: "python-matter-server", name: "Lamp", room: "Kitchen")
                    ])
            ],
            routers: [.init(id: "wpan0", interface: "wpan0", restURL: nil, borderAgentId: nil, firstSeenAt: 1, activeDataset: nil)],
            tokens: [.init(name: "ha", scope: "read", hash: String(repeating: "ab", count: 32), createdAt: 1, lastUsedAt: nil)])
    }

    static let sealed: [UInt8] = try! BackupCodec.seal(contents(), passphrase: passphrase, cost: cost)

    @Test func opensWhatItSealed() throws {
        #expect(try BackupCodec.open(Self.sealed, passphrase: Self.passphrase) == Self.contents())
        let summary = BackupSummary(Self.contents(), format: 1)
        #expect(summary.networks.map(\.extPanId) == ["1111111122222222"] && summary.networks[0].credentials && summary.matterNodes == 1)
    }

    @Test func sealingTwiceNeverRepeatsSaltOrNonce() throws {
        let again = try BackupCodec.seal(Self.contents(), passphrase: Self.passphrase, cost: Self.cost)
        #expect(Array(again[20..<48]) != Array(Self.sealed[20..<48]))
    }

    @Test func theFileHoldsNoSecretInTheClear() throws {
        let text = String(decoding: Self.sealed, as: UTF8.self)
        #expect(!text.contains("0e08") && !text.contains("Home-Net") && !text.contains("abab"))
    }

    @Test func aWrongPassphraseIsSaidSoWithExit77() {
        #expect(throws: BackupFileError.wrongPassphrase) { try BackupCodec.open(Self.sealed, passphrase: Array("wrong horse battery".utf8)) }
        #expect(BackupFileError.wrongPassphrase.exitCode == 77)
    }

    @Test func aShortPassphraseMakesNoBackup() {
        #expect(throws: BackupFileError.weakPassphrase) { try BackupCodec.seal(Self.contents(), passphrase: Array("short".utf8), cost: Self.cost) }
    }

    @Test func everyTruncationIsRefused() {
        for length in 0..<Self.sealed.count {
            do {
                _ = try BackupCodec.open(Array(Self.sealed.prefix(length)), passphrase: Self.passphrase)
                Issue.record("a backup cut to \(length) bytes opened")
            } catch {
                guard case .truncated = error else { Issue.record("cut to \(length): \(error)"); continue }
                #expect(error.exitCode == 65)
            }
        }
    }

    @Test func aFlippedBitInEachRegionIsRefused() {
        // magic, version, KDF, cost, salt, nonce, check, length, ciphertext, tag.
        let offsets = [0, 7, 9, 10, 11, 15, 19, 20, 35, 36, 47, 48, 79, 87, 88, Self.sealed.count / 2, Self.sealed.count - 17, Self.sealed.count - 1]
        for offset in offsets {
            var file = Self.sealed
            file[offset] ^= 0x01
            #expect(throws: BackupFileError.self, "bit flipped at \(offset)") { try BackupCodec.open(file, passphrase: Self.passphrase) }
        }
        // The ciphertext and tag: a changed byte is told as such, not as a wrong passphrase.
        for offset in [88, Self.sealed.count / 2, Self.sealed.count - 1] {
            var file = Self.sealed
            file[offset] ^= 0x80
            #expect(throws: BackupFileError.tampered) { try BackupCodec.open(file, passphrase: Self.passphrase) }
        }
    }

    @Test func aNewerFormatIsRefusedBeforeAnyKeyIsDerived() {
        var file = Self.sealed
        file[9] = 2
        #expect(throws: BackupFileError.newerFormat(2)) { try BackupCodec.open(file, passphrase: Self.passphrase) }
        #expect(throws: BackupFileError.notABackup) { try BackupCodec.open(Array("{\"schema\":1}".utf8), passphrase: Self.passphrase) }
    }

    @Test func aHostileCostIsRefusedBeforeItTakesTheMachine() {
        var file = Self.sealed
        file[11] = 40
        #expect(throws: BackupFileError.self) { try BackupFile.readHeader(file) }
        file = Self.sealed
        file[12...15] = [0xFF, 0xFF, 0xFF, 0xFF]
        #expect(throws: BackupFileError.self) { try BackupFile.readHeader(file) }
    }

    @Test func trailingBytesAreRefused() {
        #expect(throws: BackupFileError.trailingBytes(expected: Self.sealed.count, actual: Self.sealed.count + 1)) {
            try BackupCodec.open(Self.sealed + [0], passphrase: Self.passphrase)
        }
    }

    @Test func newerOrBrokenContentsAreRefusedWithTheirSentence() {
        #expect(throws: BackupFileError.newerContents(9)) { try BackupCodec.decode(Array("{\"schema\":9}".utf8)) }
        #expect(throws: BackupFileError.self) { try BackupCodec.decode(Array("{\"schema\":1}".utf8)) }
        #expect(throws: BackupFileError.self) { try BackupCodec.decode(Array("[1,2".utf8)) }
    }
}
