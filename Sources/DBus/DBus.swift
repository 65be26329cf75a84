// The DBus wrapper module; see docs/architecture.md.
