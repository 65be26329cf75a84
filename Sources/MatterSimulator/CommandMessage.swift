import TBRFoundation

/// One message a client sends, as python-matter-server's client handler reads it
/// (`dataclass_from_dict(CommandMessage, json_loads(text))`): `{"message_id", "command", "args"}`.
///
/// Text that the server cannot make a `CommandMessage` of ends the connection: text that is not JSON
/// (`ValueError`), JSON that is not an object, a `message_id` or `command` that is neither a string
/// nor `null`, `args` that is neither an object nor `null` (`TypeError`, `AttributeError`). The
/// server then closes the WebSocket with status 1000 and says nothing; observed for text that is
/// not JSON, a numeric `message_id`, an array, an `args` array and a numeric `command`. A missing
/// `message_id` or `command` is `null`: the answer carries `"message_id": null`, and a missing
/// command is `Invalid command: None`. Members other than these three are ignored.
struct CommandMessage: Sendable {
    /// The `message_id`: a string, or `null`.
    let messageID: JSON
    /// The command's name, nil when missing or `null`.
    let command: String?
    /// The arguments.
    let arguments: CommandArguments

    /// Reads `text`; nil when the server would close the connection.
    init?(text: String) {
        guard let value = try? JSON(parsing: text), let object = value.object else { return nil }
        let id = object["message_id"] ?? .null
        let command = object["command"] ?? .null
        let args = object["args"] ?? .null
        guard id.isNull || id.string != nil, command.isNull || command.string != nil, args.isNull || args.object != nil else { return nil }
        messageID = id
        self.command = command.string
        arguments = CommandArguments(args.object)
    }

    /// The command as the server's messages name it (`None` when there is none).
    var commandText: String { command ?? "None" }
}
