// The JSON documents `tbrctl --json` prints and tbrd's HTTPS API serves: one Codable type per shape, in a
// file of its own, used by both sides so that a field has one name everywhere (docs/http-api.md,
// docs/cli.md). Their text forms for people are tbrctl's (TBRControl's `render()` extensions).
