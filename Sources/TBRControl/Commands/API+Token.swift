import HTTPAPIRouting
import TBRCore
import TBRCommandLine
import TBRDBusAPI

extension API {
    /// `tbrctl api token`: create, list and revoke the HTTPS API's tokens.
    struct Token: CommandGroup {
        static let configuration = CommandConfiguration(
            name: "token",
            abstract: "Create, list and revoke the HTTPS API's tokens (root or group tbrd-admin).",
            subcommands: [Create.self, List.self, Revoke.self])
    }
}

extension API.Token {
    /// `tbrctl api token create NAME --scope read|epskc|admin`.
    struct Create: ControlCommand {
        static let configuration = CommandConfiguration(
            name: "create",
            abstract: "Create a token and print it once; tbrd keeps only its hash.",
            discussion: """
                Scopes: read (what group tbrd may do over D-Bus: routers, structures, policies, events), epskc \
                (read, and starting and stopping ePSKc keys: for a phone that only shares credentials), admin \
                (everything, as group tbrd-admin). The token is printed once and cannot be shown again: keep it, \
                or revoke it and create another. With --json: {"name", "scope", "token"}. Exit status: 0, 65 a \
                name that exists or is not valid, 77 not an admin, 69 tbrd is not running.
                """)
        static let arguments: [ArgumentSpec] = [
            .positional("name", valueName: "NAME", help: "A name for the token (who or what uses it)."),
            .option("scope", valueName: "SCOPE", help: "read, epskc or admin.", default: nil),
        ]

        let name: String
        let scope: APIScope

        init(_ values: ParsedValues) throws(UsageError) {
            name = try values.required("name")
            scope = try values.required("scope") { (word) throws(ArgumentValueError) -> APIScope in
                guard let scope = APIScope(rawValue: word) else { throw ArgumentValueError("a scope is read, epskc or admin") }
                return scope
            }
        }

        func run(in context: CommandContext) async throws -> ExitCode {
            let created = try await RouterSession.withTbrd(context, for: "'api token create'") {
                try await $0.createAPIToken(name: name, scope: scope)
            }
            if context.json { try context.writeJSON(created) } else { context.write(created.token) }
            return .success
        }
    }

    /// `tbrctl api token list`.
    struct List: ControlCommand {
        static let configuration = CommandConfiguration(
            name: "list",
            abstract: "List the tokens: name, scope, created, last used (never the token).",
            discussion: "With --json: an array of {\"name\", \"scope\", \"createdAt\", \"lastUsedAt\"}. Needs root or group tbrd-admin.")
        static let arguments: [ArgumentSpec] = []

        init(_ values: ParsedValues) throws(UsageError) {}

        func run(in context: CommandContext) async throws -> ExitCode {
            let tokens = try await RouterSession.withTbrd(context, for: "'api token list'") { try await $0.apiTokens() }
            if context.json {
                try context.writeJSON(tokens)
            } else if tokens.isEmpty {
                context.write("no API tokens (tbrctl api token create NAME --scope SCOPE)")
            } else {
                context.write(
                    TextTable.render(
                        header: ["NAME", "SCOPE", "CREATED", "LAST USED"],
                        rows: tokens.map { [$0.name, $0.scope, $0.createdAt, $0.lastUsedAt ?? "never"] }))
            }
            return .success
        }
    }

    /// `tbrctl api token revoke NAME`.
    struct Revoke: ControlCommand {
        static let configuration = CommandConfiguration(
            name: "revoke",
            abstract: "Revoke a token: requests made with it are refused from now on.",
            discussion: "Exit status: 0, 1 no such token, 77 not an admin, 69 tbrd is not running.")
        static let arguments: [ArgumentSpec] = [.positional("name", valueName: "NAME", help: "The token's name.")]

        let name: String

        init(_ values: ParsedValues) throws(UsageError) { name = try values.required("name") }

        func run(in context: CommandContext) async throws -> ExitCode {
            try await RouterSession.withTbrd(context, for: "'api token revoke'") { try await $0.revokeAPIToken(name) }
            if context.json { try context.writeJSON(["revoked": name]) } else { context.write("revoked API token \(name)") }
            return .success
        }
    }
}
