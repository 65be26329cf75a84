internal import CMosquitto
internal import TBRFoundation

/// Eclipse Mosquitto's client library, opened with `dlopen` when tbrd's MQTT client is first made rather
/// than linked: a tbrd without `mqtt-url` never maps it, nor the OpenSSL it links (tbrd's idle memory
/// budget, docs/performance.md). Every function is resolved at once, once per process; a machine without
/// the library, or with one that lacks a function, gets an error naming the soname and the function.
enum LibMosquitto {
    /// The functions the client calls, resolved from the loaded library.
    struct API: @unchecked Sendable {
        // @unchecked: C function pointers from a library that is never unloaded; immutable.
        let new: tbrd_mosq_new
        let destroy: tbrd_mosq_destroy
        let userData: tbrd_mosq_user_data_set
        let intOption: tbrd_mosq_int_option
        let usernamePassword: tbrd_mosq_username_pw_set
        let will: tbrd_mosq_will_set
        let tls: tbrd_mosq_tls_set
        let connect: tbrd_mosq_connect
        let disconnect: tbrd_mosq_disconnect
        let socket: tbrd_mosq_socket
        let loopRead: tbrd_mosq_loop_read
        let loopWrite: tbrd_mosq_loop_write
        let loopMisc: tbrd_mosq_loop_misc
        let wantWrite: tbrd_mosq_want_write
        let publish: tbrd_mosq_publish_v5
        let subscribe: tbrd_mosq_subscribe
        let onConnect: tbrd_mosq_connect_v5_callback_set
        let onDisconnect: tbrd_mosq_disconnect_v5_callback_set
        let onMessage: tbrd_mosq_message_v5_callback_set
        let addBinaryProperty: tbrd_mosq_property_add_binary
        let readStringProperty: tbrd_mosq_property_read_string
        let readBinaryProperty: tbrd_mosq_property_read_binary
        let freeProperties: tbrd_mosq_property_free_all
        let errorText: tbrd_mosq_strerror
        let connackText: tbrd_mosq_connack_string
        let reasonText: tbrd_mosq_reason_string

        /// Resolves every function from `library` and initialises it (`mosquitto_lib_init`).
        /// - Throws: ``SharedLibraryError`` naming the first function `library` lacks.
        init(_ library: SharedLibrary) throws(SharedLibraryError) {
            let initialise: tbrd_mosq_lib_init = try library.function("mosquitto_lib_init")
            new = try library.function("mosquitto_new")
            destroy = try library.function("mosquitto_destroy")
            userData = try library.function("mosquitto_user_data_set")
            intOption = try library.function("mosquitto_int_option")
            usernamePassword = try library.function("mosquitto_username_pw_set")
            will = try library.function("mosquitto_will_set")
            tls = try library.function("mosquitto_tls_set")
            connect = try library.function("mosquitto_connect")
            disconnect = try library.function("mosquitto_disconnect")
            socket = try library.function("mosquitto_socket")
            loopRead = try library.function("mosquitto_loop_read")
            loopWrite = try library.function("mosquitto_loop_write")
            loopMisc = try library.function("mosquitto_loop_misc")
            wantWrite = try library.function("mosquitto_want_write")
            publish = try library.function("mosquitto_publish_v5")
            subscribe = try library.function("mosquitto_subscribe")
            onConnect = try library.function("mosquitto_connect_v5_callback_set")
            onDisconnect = try library.function("mosquitto_disconnect_v5_callback_set")
            onMessage = try library.function("mosquitto_message_v5_callback_set")
            addBinaryProperty = try library.function("mosquitto_property_add_binary")
            readStringProperty = try library.function("mosquitto_property_read_string")
            readBinaryProperty = try library.function("mosquitto_property_read_binary")
            freeProperties = try library.function("mosquitto_property_free_all")
            errorText = try library.function("mosquitto_strerror")
            connackText = try library.function("mosquitto_connack_string")
            reasonText = try library.function("mosquitto_reason_string")
            _ = initialise()
        }
    }

    /// The soname Debian's `libmosquitto1` ships.
    static let libraryNames = ["libmosquitto.so.1"]

    /// The functions, loaded on first use: a lazy, thread-safe `static let`, the process-wide library,
    /// never unloaded.
    static let api: Result<API, MQTTError> = {
        do throws(SharedLibraryError) { return .success(try API(try SharedLibrary.open(libraryNames))) } catch {
            return .failure(MQTTError("\(error)" + (error.symbol == nil ? " (install libmosquitto1)" : "")))
        }
    }()
}

/// Why the MQTT client could not be made, one sentence.
public struct MQTTError: Error, Hashable, Sendable, CustomStringConvertible {
    public let description: String
    /// An error saying `description`.
    public init(_ description: String) { self.description = description }
}
