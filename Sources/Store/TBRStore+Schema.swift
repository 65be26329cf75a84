extension TBRStore {
    /// tbrd's schema, one migration per version. Released migrations are never edited.
    ///
    /// Version 1 (all tables `STRICT`; times are seconds since the Unix epoch as `REAL`):
    /// - `structures(id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT UNIQUE, created_at,
    ///   internet_access_option TEXT NULL, default_thread_network_id TEXT NULL, settings_updated_at NULL)`:
    ///   a structure and its settings (the desired policy), `AUTOINCREMENT` so ids are never reused;
    /// - `routers(id TEXT PRIMARY KEY, interface_name, border_agent_id, online 0|1, first_seen_at,
    ///   last_seen_at)`: every router ever seen, remembered while offline;
    /// - `memberships(router_id PRIMARY KEY → routers, structure_id → structures, added_at)`: the primary key
    ///   makes a router belong to at most one structure; both foreign keys cascade on delete;
    /// - `applied_policies(router_id PRIMARY KEY → routers, option, state applied|pending|failed, error,
    ///   updated_at)`: what the reconciler last did on each router (`error` set exactly when failed);
    /// - `epskc_events(sequence INTEGER PRIMARY KEY AUTOINCREMENT, router_id, session_id, kind
    ///   activated|deactivated, reason, detail, activated_at, deactivated_at, valid_seconds, recorded_at,
    ///   restore_record BLOB)`: the append-only ePSKc journal; `AUTOINCREMENT` keeps sequences increasing
    ///   after pruning; `restore_record` (activations only) is the caller's opaque recovery data. No foreign
    ///   key to `routers`: the journal is history and outlives a forgotten router. No column holds a key.
    ///
    /// Version 2: `routers.last_known BLOB NULL`, the caller's opaque record of what the router last
    /// reported (served while it is offline, kept across restarts), and `routers.last_known_at REAL NULL`.
    ///
    /// Version 3: `applied_policies` rebuilt as `(router_id PRIMARY KEY → routers, option, state
    /// applied|pending|failed|unsupported, detail TEXT NOT NULL DEFAULT '', updated_at)`: the reconciler
    /// also reports what a router cannot provide (`unsupported`), and every state may carry a detail
    /// (`failed` and `unsupported` must); version 2's `error` becomes `detail`. SQLite cannot change a
    /// `CHECK` in place, so the table is copied into a new one and renamed.
    ///
    /// Version 4: `matter_nodes(node_id INTEGER PRIMARY KEY, structure_id → structures ON DELETE CASCADE,
    /// vendor_id, product_id, commissioned_at, session_id, payload_id, ext_pan_id NULL, backend)`: the Matter
    /// nodes commissioned into each structure. `node_id` holds the 64-bit node ID's bit pattern (node IDs
    /// above 2⁶³ are negative in SQLite); a node ID names one node of the fabric, so recording it again
    /// (into another structure, or after the commissioner's fabric was reset) replaces the old row. No
    /// column holds a passcode or an onboarding payload.
    ///
    /// Version 5: `rooms(structure_id → structures ON DELETE CASCADE, name, created_at, PRIMARY KEY
    /// (structure_id, name))`, the rooms of each structure (names in NFC); `matter_nodes` rebuilt with
    /// `name TEXT NULL` (in NFC), `room TEXT NULL` (a room of the node's own structure: a foreign key on
    /// `(structure_id, room)`, checked at the end of each statement so that deleting a structure takes its
    /// rooms and nodes together), and `session_id`/`payload_id` NULL for a node adopted rather than
    /// commissioned by tbrd (version 4's rows keep theirs).
    ///
    /// Version 6: `routers.rest_url TEXT NULL`, the base URL of an otbr-agent's REST API for a border router
    /// on another host that an admin added (NULL for the agents found on the bus), unique among routers.
    ///
    /// Version 7: `thread_networks(structure_id → structures ON DELETE CASCADE, ext_pan_id (16 lower-case hex
    /// digits), network_name, channel NULL, active_timestamp NULL, dataset BLOB NULL, source
    /// router|fetched|added|mdns, source_detail, first_seen_at, last_seen_at, mdns_seen_at NULL, PRIMARY KEY
    /// (structure_id, ext_pan_id))`: each structure's network directory. `dataset` holds the Active dataset's
    /// TLVs, network key and PSKc included, when tbrd holds the credentials (the database is 0600); it goes
    /// with its row. The preferred network stays `structures.default_thread_network_id`, so a default set
    /// before is the preferred network after the upgrade.
    ///
    /// Version 8: `network_migrations(structure_id PRIMARY KEY → structures ON DELETE CASCADE, body, running,
    /// updated_at)`: each structure's last migration or channel change (the plan and each router's outcome,
    /// as the daemon writes it: JSON it alone reads). `running` 1 is the structure's migration lock: one
    /// migration or channel change at a time, kept across restarts of tbrd.
    ///
    /// Version 9: `api_tokens(name TEXT PRIMARY KEY, scope read|epskc|admin, hash BLOB (32 bytes), created_at,
    /// last_used_at NULL)`: the HTTPS API's tokens. Only each token's SHA-256 is kept, never the token.
    ///
    /// Version 10: `structures.recovery TEXT NOT NULL DEFAULT 'ask' CHECK (off|ask|auto)`: what tbrd does when
    /// a router of the structure comes back with no network (issue 48).
    ///
    /// Version 11: `problems(id INTEGER PRIMARY KEY AUTOINCREMENT, subject, check_id, message, fix, opened_at,
    /// closed_at NULL)`: what tbrd's health monitor found (issue 49), open while `closed_at` is null; at most
    /// one open problem per subject and check (a partial unique index). Closed ones are history, pruned by age.
    public static let migrations: [SchemaMigration] = [
        SchemaMigration(version: 1, "structures, routers, memberships, applied policies and the ePSKc journal", sql: """
            CREATE TABLE structures (
                id                        INTEGER PRIMARY KEY AUTOINCREMENT,
                name                      TEXT NOT NULL UNIQUE CHECK (length(name) > 0),
                created_at                REAL NOT NULL,
                internet_access_option    TEXT,
                default_thread_network_id TEXT,
                settings_updated_at       REAL
            ) STRICT;

            CREATE TABLE routers (
                id              TEXT PRIMARY KEY CHECK (length(id) > 0),
                interface_name  TEXT,
                border_agent_id TEXT,
                online          INTEGER NOT NULL DEFAULT 0 CHECK (online IN (0, 1)),
                first_seen_at   REAL NOT NULL,
                last_seen_at    REAL NOT NULL
            ) STRICT;

            CREATE TABLE memberships (
                router_id    TEXT PRIMARY KEY REFERENCES routers(id) ON DELETE CASCADE,
                structure_id INTEGER NOT NULL REFERENCES structures(id) ON DELETE CASCADE,
                added_at     REAL NOT NULL
            ) STRICT;
            CREATE INDEX memberships_by_structure ON memberships(structure_id);

            CREATE TABLE applied_policies (
                router_id  TEXT PRIMARY KEY REFERENCES routers(id) ON DELETE CASCADE,
                option     TEXT,
                state      TEXT NOT NULL CHECK (state IN ('applied', 'pending', 'failed')),
                error      TEXT CHECK ((state = 'failed') = (error IS NOT NULL)),
                updated_at REAL NOT NULL
            ) STRICT;

            CREATE TABLE epskc_events (
                sequence       INTEGER PRIMARY KEY AUTOINCREMENT,
                router_id      TEXT NOT NULL CHECK (length(router_id) > 0),
                session_id     TEXT,
                kind           TEXT NOT NULL CHECK (kind IN ('activated', 'deactivated')),
                reason         TEXT CHECK (kind = 'activated' OR reason IS NOT NULL),
                detail         TEXT,
                activated_at   REAL NOT NULL,
                deactivated_at REAL CHECK ((kind = 'deactivated') = (deactivated_at IS NOT NULL)),
                valid_seconds  INTEGER CHECK (valid_seconds IS NULL OR valid_seconds >= 0),
                recorded_at    REAL NOT NULL,
                restore_record BLOB CHECK (kind = 'activated' OR restore_record IS NULL)
            ) STRICT;
            CREATE INDEX epskc_events_by_router ON epskc_events(router_id, sequence);
            CREATE INDEX epskc_events_by_time ON epskc_events(recorded_at);
            """),
        SchemaMigration(version: 2, "what each router last reported, served while it is offline", sql: """
            ALTER TABLE routers ADD COLUMN last_known BLOB;
            ALTER TABLE routers ADD COLUMN last_known_at REAL;
            """),
        SchemaMigration(version: 3, "policy states unsupported and a detail for every state", sql: """
            CREATE TABLE applied_policies_v3 (
                router_id  TEXT PRIMARY KEY REFERENCES routers(id) ON DELETE CASCADE,
                option     TEXT,
                state      TEXT NOT NULL CHECK (state IN ('applied', 'pending', 'failed', 'unsupported')),
                detail     TEXT NOT NULL DEFAULT '' CHECK (state IN ('applied', 'pending') OR length(detail) > 0),
                updated_at REAL NOT NULL
            ) STRICT;
            INSERT INTO applied_policies_v3 (router_id, option, state, detail, updated_at)
                SELECT router_id, option, state, CASE WHEN state = 'failed' AND coalesce(error, '') = '' THEN 'failed'
                                                      ELSE coalesce(error, '') END, updated_at
                FROM applied_policies;
            DROP TABLE applied_policies;
            ALTER TABLE applied_policies_v3 RENAME TO applied_policies;
            """),
        SchemaMigration(version: 4, "the Matter nodes commissioned into each structure", sql: """
            CREATE TABLE matter_nodes (
                node_id         INTEGER PRIMARY KEY,
                structure_id    INTEGER NOT NULL REFERENCES structures(id) ON DELETE CASCADE,
                vendor_id       INTEGER NOT NULL CHECK (vendor_id BETWEEN 0 AND 65535),
                product_id      INTEGER NOT NULL CHECK (product_id BETWEEN 0 AND 65535),
                commissioned_at REAL NOT NULL,
                session_id      TEXT NOT NULL CHECK (length(session_id) > 0),
                payload_id      TEXT NOT NULL,
                ext_pan_id      TEXT,
                backend         TEXT NOT NULL
            ) STRICT;
            CREATE INDEX matter_nodes_by_structure ON matter_nodes(structure_id, node_id);
            """),
        SchemaMigration(version: 5, "rooms, and a name and a room for each Matter node", sql: """
            CREATE TABLE rooms (
                structure_id INTEGER NOT NULL REFERENCES structures(id) ON DELETE CASCADE,
                name         TEXT NOT NULL CHECK (length(name) > 0),
                created_at   REAL NOT NULL,
                PRIMARY KEY (structure_id, name)
            ) STRICT;

            CREATE TABLE matter_nodes_v5 (
                node_id         INTEGER PRIMARY KEY,
                structure_id    INTEGER NOT NULL REFERENCES structures(id) ON DELETE CASCADE,
                vendor_id       INTEGER NOT NULL CHECK (vendor_id BETWEEN 0 AND 65535),
                product_id      INTEGER NOT NULL CHECK (product_id BETWEEN 0 AND 65535),
                commissioned_at REAL NOT NULL,
                session_id      TEXT CHECK (session_id IS NULL OR length(session_id) > 0),
                payload_id      TEXT CHECK ((session_id IS NULL) = (payload_id IS NULL)),
                ext_pan_id      TEXT,
                backend         TEXT NOT NULL,
                name            TEXT CHECK (name IS NULL OR length(name) > 0),
                room            TEXT,
                FOREIGN KEY (structure_id, room) REFERENCES rooms(structure_id, name)
            ) STRICT;
            INSERT INTO matter_nodes_v5
                (node_id, structure_id, vendor_id, product_id, commissioned_at, session_id, payload_id, ext_pan_id, backend)
                SELECT node_id, structure_id, vendor_id, product_id, commissioned_at, session_id, payload_id, ext_pan_id, backend
                FROM matter_nodes;
            DROP TABLE matter_nodes;
            ALTER TABLE matter_nodes_v5 RENAME TO matter_nodes;
            CREATE INDEX matter_nodes_by_structure ON matter_nodes(structure_id, node_id);
            CREATE INDEX matter_nodes_by_room ON matter_nodes(structure_id, room);
            """),
        SchemaMigration(version: 6, "border routers on other hosts, reached through their REST API", sql: """
            ALTER TABLE routers ADD COLUMN rest_url TEXT CHECK (rest_url IS NULL OR length(rest_url) > 0);
            CREATE UNIQUE INDEX routers_by_rest_url ON routers(rest_url) WHERE rest_url IS NOT NULL;
            """),
        SchemaMigration(version: 7, "a Thread network directory per structure", sql: """
            CREATE TABLE thread_networks (
                structure_id     INTEGER NOT NULL REFERENCES structures(id) ON DELETE CASCADE,
                ext_pan_id       TEXT NOT NULL CHECK (length(ext_pan_id) = 16),
                network_name     TEXT NOT NULL DEFAULT '',
                channel          INTEGER,
                active_timestamp INTEGER,
                dataset          BLOB,
                source           TEXT NOT NULL CHECK (source IN ('router', 'fetched', 'added', 'mdns')),
                source_detail    TEXT NOT NULL DEFAULT '',
                first_seen_at    REAL NOT NULL,
                last_seen_at     REAL NOT NULL,
                mdns_seen_at     REAL,
                PRIMARY KEY (structure_id, ext_pan_id)
            ) STRICT;
            """),
        SchemaMigration(version: 8, "the migration lock and last migration of each structure", sql: """
            CREATE TABLE network_migrations (
                structure_id INTEGER PRIMARY KEY REFERENCES structures(id) ON DELETE CASCADE,
                body         TEXT NOT NULL,
                running      INTEGER NOT NULL CHECK (running IN (0, 1)),
                updated_at   REAL NOT NULL
            ) STRICT;
            """),
        SchemaMigration(version: 9, "the HTTPS API's tokens, kept hashed", sql: """
            CREATE TABLE api_tokens (
                name         TEXT PRIMARY KEY,
                scope        TEXT NOT NULL CHECK (scope IN ('read', 'epskc', 'admin')),
                hash         BLOB NOT NULL UNIQUE CHECK (length(hash) = 32),
                created_at   REAL NOT NULL,
                last_used_at REAL
            ) STRICT;
            """),
        SchemaMigration(version: 10, "what tbrd does when a router of a structure comes back empty", sql: """
            ALTER TABLE structures ADD COLUMN recovery TEXT NOT NULL DEFAULT 'ask' CHECK (recovery IN ('off', 'ask', 'auto'));
            """),
        SchemaMigration(version: 11, "problems the health monitor opened and closed", sql: """
            CREATE TABLE problems (
                id        INTEGER PRIMARY KEY AUTOINCREMENT,
                subject   TEXT NOT NULL CHECK (length(subject) > 0),
                check_id  TEXT NOT NULL CHECK (length(check_id) > 0),
                message   TEXT NOT NULL,
                fix       TEXT NOT NULL DEFAULT '',
                opened_at REAL NOT NULL,
                closed_at REAL CHECK (closed_at IS NULL OR closed_at >= opened_at)
            ) STRICT;
            CREATE UNIQUE INDEX problems_open ON problems(subject, check_id) WHERE closed_at IS NULL;
            CREATE INDEX problems_by_time ON problems(opened_at);
            """),
        // Rows in time order (rowid), no index on time: pruning and reading from a moment find the first
        // row at or after it from the oldest, which pruning keeps near. Only what changed is stored (NULL
        // costs no byte), and the subject is a number, so 64 routers changing once a minute for 30 days
        // stay within the bound (docs/performance.md).
        SchemaMigration(version: 12, "samples of what the health monitor watches, when it changes", sql: """
            CREATE TABLE health_subjects (
                id   INTEGER PRIMARY KEY,
                name TEXT NOT NULL UNIQUE CHECK (length(name) > 0)
            ) STRICT;
            CREATE TABLE health_samples (
                at        INTEGER NOT NULL,
                subject   INTEGER NOT NULL REFERENCES health_subjects(id),
                state     TEXT,
                partition INTEGER,
                routers   INTEGER,
                children  INTEGER
            ) STRICT;
            """),
    ]
}
