internal import CDBus

extension LibDBus {
    /// Opens a private libdbus connection to `bus` and registers with it (`Hello`), blocking the calling
    /// thread until the bus has answered. The one way both ``Connection`` and ``BlockingConnection`` reach
    /// a bus.
    ///
    /// `.system` and `.session` use `dbus_bus_get_private`, which reads `DBUS_SYSTEM_BUS_ADDRESS` or
    /// `DBUS_SESSION_BUS_ADDRESS`; an address uses `dbus_connection_open_private` and `dbus_bus_register`.
    /// The connection does not exit the process when the bus goes away (libdbus's default for bus
    /// connections). The caller owns it: `connection_close`, then `connection_unref`.
    /// - Throws: ``DBusError`` when libdbus cannot be loaded, the bus cannot be reached or refuses the
    ///   connection ("cannot connect to the system bus: …").
    static func openPrivate(_ bus: Bus) throws(DBusError) -> OpaquePointer {
        try available()
        // Connections on different threads share libdbus's process-wide state (message cache, data
        // slots), which libdbus protects only once it is initialised for threads.
        _ = c.threads_init_default()
        var err = newError()
        defer { c.error_free(&err) }
        let conn: OpaquePointer?
        switch bus {
        case .system: conn = c.bus_get_private(DBUS_BUS_SYSTEM, &err)
        case .session: conn = c.bus_get_private(DBUS_BUS_SESSION, &err)
        case .address(let address):
            let opened = c.connection_open_private(address, &err)
            if let opened, c.bus_register(opened, &err) == 0 {
                c.connection_close(opened)
                c.connection_unref(opened)
                conn = nil
            } else {
                conn = opened
            }
        }
        guard let conn else { throw error(from: err, context: "cannot connect to the \(bus) bus") }
        c.connection_set_exit_on_disconnect(conn, 0)
        return conn
    }

    /// Converts a filled-in libdbus `DBusError` into ours, its message prefixed with `context`.
    static func error(from err: DBusError_C, context: String) -> DBusError {
        let name = err.name.flatMap { try? ErrorName(String(cString: $0)) } ?? .failed
        let message = err.message.map { String(cString: $0) } ?? ""
        return DBusError(name, message.isEmpty ? context : "\(context): \(message)")
    }
}
