import Foundation
import Store
import TBRTestKit
import Testing

@Suite("State directory and file modes")
struct FileModeTests {
    @Test("a missing state directory is created 0700; the database, -wal and -shm are 0600")
    func modesOfNewFiles() async throws {
        try await withFixture { f in
            let stateDirectory = f.directory.appendingPathComponent("var/lib/tbrd").path
            let path = TBRStore.databasePath(inStateDirectory: stateDirectory)
            let store = try TBRStore(path: path, clock: f.clock)
            try await store.createStructure(named: "Home")  // make sure the WAL has frames
            #expect(try mode(f.directory.appendingPathComponent("var").path) == 0o700)
            #expect(try mode(f.directory.appendingPathComponent("var/lib").path) == 0o700)
            #expect(try mode(stateDirectory) == 0o700)
            #expect(try mode(path) == 0o600)
            #expect(try mode(path + "-wal") == 0o600)
            #expect(try mode(path + "-shm") == 0o600)
        }
    }

    @Test("loose modes of existing files are tightened to 0600; an existing directory keeps its mode")
    func existingFilesAreTightened() async throws {
        try await withFixture { f in
            chmod(f.directory.path, 0o755)
            for file in [f.path, f.path + "-wal", f.path + "-shm"] {
                #expect(FileManager.default.createFile(atPath: file, contents: nil, attributes: [.posixPermissions: 0o644]))
            }
            let store = try f.open()
            try await store.createStructure(named: "Home")
            #expect(try mode(f.directory.path) == 0o755)
            for file in [f.path, f.path + "-wal", f.path + "-shm"] { #expect(try mode(file) == 0o600) }
        }
    }

    @Test("a symbolic link in place of the database is refused")
    func symlinkRefused() async throws {
        try await withFixture { f in
            let target = f.directory.appendingPathComponent("elsewhere.db").path
            #expect(FileManager.default.createFile(atPath: target, contents: nil))
            try FileManager.default.createSymbolicLink(atPath: f.path, withDestinationPath: target)
            do {
                _ = try f.open()
                Issue.record("a symlinked database was opened")
            } catch {
                guard case .sqlite(let e) = error as? StoreError else {
                    Issue.record("unexpected \(error)")
                    return
                }
                #expect(e.code == .cantOpen)
                #expect(e.message.contains(f.path))
            }
        }
    }

    @Test("the default location is /var/lib/tbrd/tbrd.db")
    func defaultPath() {
        #expect(TBRStore.defaultStateDirectory == "/var/lib/tbrd")
        #expect(TBRStore.databasePath() == "/var/lib/tbrd/tbrd.db")
        #expect(TBRStore.databasePath(inStateDirectory: "/tmp/x/") == "/tmp/x/tbrd.db")
    }
}
