import Foundation
import Store
import TBRFoundation
import TBRTestKit

/// A temporary state directory and a store in it, with a manual clock.
struct StoreFixture {
    let directory: URL
    let clock: ManualClock

    /// The database path inside the temporary directory.
    var path: String { TBRStore.databasePath(inStateDirectory: directory.path) }

    func open(retention: JournalRetention = .unlimited) throws -> TBRStore {
        try TBRStore(path: path, clock: clock, retention: retention)
    }
}

/// Runs `body` with a fresh state directory (removed afterwards) and a store opened in it.
func withStore<R>(
    retention: JournalRetention = .unlimited, _ body: (TBRStore, StoreFixture) async throws -> R
) async throws -> R {
    try await withFixture { fixture in
        try await body(try fixture.open(retention: retention), fixture)
    }
}

/// Runs `body` with a fresh temporary directory, removed afterwards.
func withFixture<R>(_ body: (StoreFixture) async throws -> R) async throws -> R {
    let directory = try TemporaryDirectory.make(prefix: "tbrd-store")
    defer { try? FileManager.default.removeItem(at: directory) }
    return try await body(StoreFixture(directory: directory, clock: ManualClock()))
}

/// The permission bits of `path` (no symlinks followed).
func mode(_ path: String) throws -> mode_t {
    var st = stat()
    guard lstat(path, &st) == 0 else { throw TestKitError("cannot stat \(path): errno \(errno)") }
    return st.st_mode & 0o7777
}

/// Runs `body` and returns the ``SQLiteError`` it threw, or nil.
func sqliteError(_ body: () throws -> Void) -> SQLiteError? {
    do {
        try body()
        return nil
    } catch {
        return error as? SQLiteError
    }
}
