import TBRCommandLine

/// Declarations several tbrctl commands share, so that they read and document the same everywhere.
extension ArgumentSpec {
    /// `--json`, declared once on the root and accepted by every command, before or after its words.
    static let json = ArgumentSpec.flag(
        "json", help: "Print JSON for scripts (sorted keys, camelCase names) instead of text.", global: true)

    /// `--bus`, declared once on the root: the bus tbrd and otbr-agent are on.
    static let bus = ArgumentSpec.option(
        "bus", valueName: "system|session|ADDRESS",
        help: "The D-Bus bus tbrd and otbr-agent are on: system, session, or an address such as unix:path=/run/x.",
        default: "system", global: true)

    /// `-d ROUTER`, declared by each command that acts on one border router.
    static let router = ArgumentSpec.option(
        "router", short: "d", valueName: "ROUTER",
        help: """
            The border router: a tbrd router id, an otbr-agent interface name such as wpan0, or a Border \
            Agent ID in hex. May be left out when there is exactly one.
            """)

    /// `--reveal-secrets`, declared by each command that can show secrets (network key, PSKc).
    static let revealSecrets = ArgumentSpec.flag(
        "reveal-secrets", help: "Show secrets (network key, PSKc) instead of <redacted>.")

    /// The `HEX|-` positional of the dataset commands that read a dataset.
    static let datasetInput = ArgumentSpec.positional(
        "dataset", valueName: "HEX|-", help: "The dataset as hex TLVs, or - to read the hex from standard input.")
}
