import Foundation
import Store
import TBRTestKit
import Testing

@Suite("Database: the SQLite wrapper")
struct DatabaseTests {
    @Test("every storage class binds and reads back exactly")
    func bindsAndReadsEveryType() async throws {
        try await withFixture { f in
            let db = try Database(path: f.path)
            try db.execute("CREATE TABLE t (i INTEGER, r REAL, s TEXT, b BLOB, n ANY) STRICT")
            let rows: [[SQLiteValue]] = [
                [.integer(.min), .real(-0.5), .text("Grüße 🏠"), .blob([0, 1, 0xff]), .null],
                [.integer(.max), .real(1e300), .text(""), .blob([]), .null],
                [.integer(0), .real(0), .text("a\u{0}b"), .blob(Array(repeating: 7, count: 4096)), .null],
            ]
            for row in rows { try db.execute("INSERT INTO t VALUES (?, ?, ?, ?, ?)", row) }
            let read = try db.query("SELECT i, r, s, b, n FROM t ORDER BY rowid") { row throws(SQLiteError) in
                (0..<row.count).map { row.value(at: $0) }
            }
            #expect(read == rows)
            let typed = try db.query("SELECT i, r, s, b, n FROM t ORDER BY rowid") { row throws(SQLiteError) in
                (try row.get(0, as: Int64.self), try row.get(1, as: Double.self), try row.get(2, as: String.self),
                 try row.get(3, as: [UInt8].self), try row.get(4, as: String?.self))
            }
            #expect(typed.map(\.0) == [.min, .max, 0])
            #expect(typed.map(\.2) == ["Grüße 🏠", "", "a\u{0}b"])
            #expect(typed[1].3 == [])
            #expect(typed.allSatisfy { $0.4 == nil })
            #expect(try db.scalar("SELECT typeof(s) FROM t WHERE i = 0", as: String.self) == "text")
            #expect(try db.scalar("SELECT typeof(b) FROM t WHERE i = ?", [.integer(.max)], as: String.self) == "blob")
        }
    }

    @Test("reading a column as the wrong type is an error naming the column, not a conversion")
    func strictColumnReads() async throws {
        try await withFixture { f in
            let db = try Database(path: f.path)
            try db.execute("CREATE TABLE t (name TEXT, maybe TEXT)")
            try db.execute("INSERT INTO t VALUES ('x', NULL)")
            let mismatch = sqliteError { _ = try db.scalar("SELECT name FROM t", as: Int64.self) }
            #expect(mismatch?.code == .mismatch)
            #expect(mismatch?.message.contains("name") == true)
            #expect(mismatch?.sql == "SELECT name FROM t")
            let null = sqliteError { _ = try db.scalar("SELECT maybe FROM t", as: String.self) }
            #expect(null?.code == .mismatch)
            #expect(try db.scalar("SELECT maybe FROM t", as: String?.self) == .some(nil))
        }
    }

    @Test("errors carry the result codes, SQLite's message and the SQL")
    func errorsCarryContext() async throws {
        try await withFixture { f in
            let db = try Database(path: f.path)
            let syntax = sqliteError { try db.execute("SELEKT 1") }
            #expect(syntax?.code == .error)
            #expect(syntax?.message.contains("syntax error") == true)
            #expect(syntax?.sql == "SELEKT 1")

            try db.execute("CREATE TABLE t (k TEXT UNIQUE)")
            try db.execute("INSERT INTO t VALUES ('a')")
            let unique = sqliteError { try db.execute("INSERT INTO t VALUES (?)", [.text("a")]) }
            #expect(unique?.code == .constraint)
            #expect(unique?.isConstraintViolation == true)
            #expect(unique?.extendedCode == 2067)  // SQLITE_CONSTRAINT_UNIQUE
            #expect(unique?.message.contains("UNIQUE constraint failed: t.k") == true)
            #expect(unique?.description.contains("INSERT INTO t VALUES (?)") == true)

            let several = sqliteError { _ = try db.prepare("SELECT 1; SELECT 2") }
            #expect(several?.code == .misuse)
            let count = sqliteError { try db.execute("INSERT INTO t VALUES (?)", []) }
            #expect(count?.code == .misuse)
        }
    }

    @Test("a connection uses WAL, foreign keys, a busy timeout, synchronous=FULL and a bounded page cache")
    func connectionPolicy() async throws {
        try await withFixture { f in
            let db = try Database(path: f.path)
            #expect(try db.scalar("PRAGMA journal_mode", as: String.self) == "wal")
            #expect(try db.scalar("PRAGMA foreign_keys", as: Int.self) == 1)
            #expect(try db.scalar("PRAGMA busy_timeout", as: Int.self) == 5000)
            #expect(try db.scalar("PRAGMA synchronous", as: Int.self) == 2)  // FULL
            // Negative: a bound in KiB, not a page count; SQLite's own default is -2000.
            #expect(try db.scalar("PRAGMA cache_size", as: Int.self) == -512)
            let normal = try Database(
                path: f.path,
                options: Database.Options(busyTimeout: .milliseconds(250), synchronous: .normal, cacheKiB: 1024))
            #expect(try normal.scalar("PRAGMA synchronous", as: Int.self) == 1)
            #expect(try normal.scalar("PRAGMA busy_timeout", as: Int.self) == 250)
            #expect(try normal.scalar("PRAGMA cache_size", as: Int.self) == -1024)
            let tiny = try Database(path: f.path, options: Database.Options(cacheKiB: 8))
            #expect(try tiny.scalar("PRAGMA cache_size", as: Int.self) == -64)
        }
    }

    @Test("a transaction that throws midway leaves no partial change")
    func transactionRollsBack() async throws {
        try await withFixture { f in
            let db = try Database(path: f.path)
            try db.execute("CREATE TABLE t (k TEXT PRIMARY KEY)")
            try db.execute("INSERT INTO t VALUES ('existing')")
            let error = sqliteError {
                try db.transaction {
                    try db.execute("INSERT INTO t VALUES ('first')")
                    try db.execute("INSERT INTO t VALUES ('existing')")  // PRIMARY KEY violation
                }
            }
            #expect(error?.code == .constraint)
            #expect(!db.isInTransaction)
            #expect(try db.query("SELECT k FROM t") { row throws(SQLiteError) in try row.get(0, as: String.self) } == ["existing"])

            struct Abort: Error {}
            #expect(throws: Abort.self) {
                try db.transaction {
                    try db.execute("DELETE FROM t")
                    throw Abort()
                }
            }
            #expect(try db.scalar("SELECT count(*) FROM t", as: Int.self) == 1)

            let value = try db.transaction { () throws -> Int in
                try db.execute("INSERT INTO t VALUES ('kept')")
                return 42
            }
            #expect(value == 42)
            #expect(try db.scalar("SELECT count(*) FROM t", as: Int.self) == 2)
        }
    }

    @Test("a nested transaction is refused without disturbing the outer one")
    func nestedTransactionIsMisuse() async throws {
        try await withFixture { f in
            let db = try Database(path: f.path)
            try db.execute("CREATE TABLE t (x INTEGER)")
            try db.transaction {
                try db.execute("INSERT INTO t VALUES (1)")
                let nested = sqliteError { try db.transaction { try db.execute("INSERT INTO t VALUES (2)") } }
                #expect(nested?.code == .misuse)
                #expect(db.isInTransaction)
            }
            #expect(try db.scalar("SELECT count(*) FROM t", as: Int.self) == 1)
        }
    }

    @Test("a file that is not a database is refused before anything is written")
    func notADatabase() async throws {
        try await withFixture { f in
            try FileManager.default.createDirectory(at: f.directory, withIntermediateDirectories: true)
            let garbage = Data(repeating: 0x5a, count: 8192)
            try garbage.write(to: URL(fileURLWithPath: f.path))
            let error = sqliteError { _ = try Database(path: f.path) }
            #expect(error?.code == .notADatabase)
            #expect(try Data(contentsOf: URL(fileURLWithPath: f.path)) == garbage)
        }
    }

    @Test("the actor runs a write as one transaction and a failed one changes nothing")
    func actorWrites() async throws {
        try await withFixture { f in
            let actor = try DatabaseActor(
                path: f.path, migrations: [SchemaMigration(version: 1, "t", sql: "CREATE TABLE t (x INTEGER CHECK (x > 0))")])
            try await actor.write { db in try db.execute("INSERT INTO t VALUES (1)") }
            await #expect(throws: SQLiteError.self) {
                try await actor.write { db in
                    try db.execute("INSERT INTO t VALUES (2)")
                    try db.execute("INSERT INTO t VALUES (-1)")  // CHECK violation
                }
            }
            let values = try await actor.read { db in
                try db.query("SELECT x FROM t") { row throws(SQLiteError) in try row.get(0, as: Int.self) }
            }
            #expect(values == [1])
            #expect(try await actor.integrityCheck() == ["ok"])
        }
    }
}
