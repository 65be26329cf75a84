import TBRCommandLine

/// Declarations several tbrctl commands share, so that they read and document the same everywhere.
extension ArgumentSpec {
    /// `--json`, declared once on the root and accepted by every command, before or after its words.
    static let json = ArgumentSpec.flag(
        "json", help: "Print JSON for scripts (sorted keys, camelCase names) instead of text.", global: true)

    /// `--reveal-secrets`, declared by each command that can show secrets (network key, PSKc).
    static let revealSecrets = ArgumentSpec.flag(
        "reveal-secrets", help: "Show secrets (network key, PSKc) instead of <redacted>.")

    /// The `HEX|-` positional of the dataset commands that read a dataset.
    static let datasetInput = ArgumentSpec.positional(
        "dataset", valueName: "HEX|-", help: "The dataset as hex TLVs, or - to read the hex from standard input.")
}
