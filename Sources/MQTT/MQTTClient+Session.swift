internal import CMosquitto
internal import Dispatch
internal import Glibc
import Synchronization
internal import TBRFoundation

// The session behind an MQTTClient: the libmosquitto handle, the connection and its timers, on the
// client's queue.

extension MQTTClient {
    /// The libmosquitto handle and everything about the connection; confined to the client's queue.
    final class Session: @unchecked Sendable {
        // @unchecked: every member is read and written on `queue` only (asserted where the library is called).
        let api: LibMosquitto.API
        let options: MQTTClientOptions
        let queue: DispatchQueue
        let logger: Logger
        let tell: @Sendable (MQTTClientEvent) -> Void
        private let handle: OpaquePointer
        private var watch: DescriptorWatch?
        private lazy var keepalive = QueueTimer(queue: queue) { [unowned self] in self.misc() }
        private lazy var retry = QueueTimer(queue: queue) { [unowned self] in self.attempt() }
        /// A broker that accepted the TCP connection but does not answer CONNECT: given up on after
        /// ``connackTimeout``.
        private lazy var connackDeadline = QueueTimer(queue: queue) { [unowned self] in self.noConnack() }
        static let connackTimeout = Duration.seconds(10)
        private(set) var connected = false {
            didSet { connectedNow.store(connected, ordering: .relaxed) }
        }
        /// ``connected``, for readers off the queue.
        let connectedNow = Atomic<Bool>(false)
        private var stopped = false
        private var backoff: Duration
        private var version = Int32(MQTT_PROTOCOL_V5)
        private var offline: [MQTTMessage] = []
        let droppedOffline = DropCounter()

        init(api: LibMosquitto.API, options: MQTTClientOptions, queue: DispatchQueue, logger: Logger, tell: @escaping @Sendable (MQTTClientEvent) -> Void)
            throws(MQTTError)
        {
            self.api = api
            self.options = options
            self.queue = queue
            self.logger = logger
            self.tell = tell
            backoff = options.firstBackoff
            guard let handle = options.clientID.withCString({ api.new($0, true, nil) }) else {
                throw MQTTError("libmosquitto could not make a client (mosquitto_new)")
            }
            self.handle = handle
            let context = Unmanaged.passUnretained(self).toOpaque()
            // The callbacks find this session through the handle's user data, set once the session exists
            // (unretained: the session owns the handle and outlives it).
            api.onConnect(handle) { _, obj, rc, _, _ in
                guard let obj else { return }
                Unmanaged<Session>.fromOpaque(obj).takeUnretainedValue().connack(rc)
            }
            api.onDisconnect(handle) { _, _, _, _ in }
            api.onMessage(handle) { _, obj, message, properties in
                guard let obj, let message else { return }
                Unmanaged<Session>.fromOpaque(obj).takeUnretainedValue().received(message.pointee, properties)
            }
            api.userData(handle, context)
            _ = api.intOption(handle, MOSQ_OPT_PROTOCOL_VERSION, version)
            if let username = options.username {
                _ = api.usernamePassword(handle, username, options.password)
            }
            if let will = options.will {
                _ = will.payload.withUnsafeBytes { api.will(handle, will.topic, Int32(will.payload.count), $0.baseAddress, 1, will.retain) }
            }
            if options.tls {
                // Without a CA file, the system's CAs (Debian's ca-certificates directory).
                let rc = api.tls(handle, options.caFile, options.caFile == nil ? "/etc/ssl/certs" : nil, nil, nil, nil)
                guard rc == MOSQ_ERR_SUCCESS.rawValue else {
                    api.destroy(handle)
                    throw MQTTError("the CA file \(options.caFile ?? "/etc/ssl/certs") cannot be used: \(api.errorText(rc).map { String(cString: $0) } ?? "error \(rc)")")
                }
            }
        }

        deinit { api.destroy(handle) }

        private func text(_ rc: Int32) -> String { api.errorText(rc).map { String(cString: $0) } ?? "error \(rc)" }

        /// One attempt at connecting: the TCP (and TLS) connection and the CONNECT packet; the broker's
        /// answer comes through ``connack(_:)``.
        func attempt() {
            dispatchPrecondition(condition: .onQueue(queue))
            guard !stopped, watch == nil else { return }
            let rc = api.connect(handle, options.host, Int32(options.port), Int32(options.keepAlive))
            guard rc == MOSQ_ERR_SUCCESS.rawValue else {
                let why = rc == MOSQ_ERR_ERRNO.rawValue ? Errno(errno).description : text(rc)
                failed("the broker \(options.host):\(options.port) cannot be reached: \(why)")
                return
            }
            let fd = api.socket(handle)
            do {
                watch = try DescriptorWatch(duplicating: fd, events: [.readable, .writable], queue: queue) { [weak self] ready in
                    self?.ready(ready)
                }
            } catch {
                _ = api.disconnect(handle)
                failed("the connection to the broker cannot be watched: \(error)")
                return
            }
            updateWatch()
            keepalive.arm(every: .seconds(max(1, options.keepAlive / 4)))
            connackDeadline.arm(after: Self.connackTimeout)
        }

        /// No CONNACK in time. Some brokers of MQTT 3.1.1 never answer a version 5 CONNECT (amqtt waits for
        /// the rest of what it takes for a 3.1.1 will): the next attempt, at once, speaks 3.1.1; one in
        /// 3.1.1 that gets no answer either goes back to 5, after the backoff.
        private func noConnack() {
            guard watch != nil, !connected else { return }
            if !speak311() {
                version = Int32(MQTT_PROTOCOL_V5)
                _ = api.intOption(handle, MOSQ_OPT_PROTOCOL_VERSION, version)
            }
            lost("the broker did not answer the connection within \(Self.connackTimeout.components.seconds) s")
        }

        private func updateWatch() {
            guard let watch else { return }
            watch.enabled = api.wantWrite(handle) ? [.readable, .writable] : [.readable]
        }

        private func ready(_ events: DescriptorWatch.Events) {
            var rc = MOSQ_ERR_SUCCESS.rawValue
            if events.contains(.readable) { rc = api.loopRead(handle, 1) }
            if rc == MOSQ_ERR_SUCCESS.rawValue, events.contains(.writable), watch != nil { rc = api.loopWrite(handle, 1) }
            guard watch != nil else { return }
            if rc != MOSQ_ERR_SUCCESS.rawValue {
                // A broker of MQTT 3.1.1 answers a version 5 CONNECT with a CONNACK of 3.1.1's shape, which
                // libmosquitto may take as a protocol error rather than a refusal.
                if rc == MOSQ_ERR_PROTOCOL.rawValue, !connected { speak311() }
                lost(rc == MOSQ_ERR_CONN_LOST.rawValue || rc == MOSQ_ERR_NO_CONN.rawValue ? "the broker closed the connection" : text(rc))
            } else {
                updateWatch()
            }
        }

        private func misc() {
            guard watch != nil else { return }
            let rc = api.loopMisc(handle)
            if rc != MOSQ_ERR_SUCCESS.rawValue { lost("keepalive: \(text(rc))") } else { updateWatch() }
        }

        /// The broker's CONNACK (in a read, on the queue).
        private func connack(_ rc: Int32) {
            connackDeadline.disarm()
            if rc == 0 {
                connected = true
                backoff = options.firstBackoff
                for filter in options.subscriptions { _ = api.subscribe(handle, nil, filter, 1) }
                let waiting = offline
                offline.removeAll()
                for message in waiting { send(message) }
                tell(.connected(version: version == Int32(MQTT_PROTOCOL_V5) ? "5" : "3.1.1"))
                return
            }
            if rc == Int32(MQTT_RC_UNSUPPORTED_PROTOCOL_VERSION.rawValue) || rc == Int32(CONNACK_REFUSED_PROTOCOL_VERSION.rawValue), speak311() {
                return
            }
            let why = (version == Int32(MQTT_PROTOCOL_V5) ? api.reasonText(rc) : api.connackText(rc)).map { String(cString: $0) } ?? "reason \(rc)"
            refusedReason = "the broker refused the connection: \(why)"
        }

        /// A broker of MQTT 3.1.1 only: spoken to in 3.1.1 from now on, and tried again at once (the
        /// connection's end calls ``lost(_:)``, which sees the zero backoff). False when already so.
        @discardableResult
        private func speak311() -> Bool {
            guard version == Int32(MQTT_PROTOCOL_V5) else { return false }
            version = Int32(MQTT_PROTOCOL_V311)
            _ = api.intOption(handle, MOSQ_OPT_PROTOCOL_VERSION, version)
            logger.notice("the MQTT broker does not speak MQTT 5: connecting with MQTT 3.1.1")
            backoff = .zero
            return true
        }

        /// Why the broker refused the last CONNECT, reported when the connection then ends.
        private var refusedReason: String?

        private func received(_ message: mosquitto_message, _ properties: OpaquePointer?) {
            let topic = message.topic.map { String(cString: $0) } ?? ""
            let payload = message.payload.map { Array(UnsafeRawBufferPointer(start: $0, count: Int(message.payloadlen))) } ?? []
            var responseTopic: String?
            var correlation: [UInt8]?
            if let properties {
                var text: UnsafeMutablePointer<CChar>?
                if api.readStringProperty(properties, Int32(MQTT_PROP_RESPONSE_TOPIC.rawValue), &text, false) != nil, let text {
                    responseTopic = String(cString: text)
                    free(text)
                }
                var bytes: UnsafeMutableRawPointer?
                var length: UInt16 = 0
                if api.readBinaryProperty(properties, Int32(MQTT_PROP_CORRELATION_DATA.rawValue), &bytes, &length, false) != nil, let bytes {
                    correlation = Array(UnsafeRawBufferPointer(start: bytes, count: Int(length)))
                    free(bytes)
                }
            }
            tell(.message(MQTTMessage(topic: topic, payload: payload, retain: message.retain, responseTopic: responseTopic, correlationData: correlation)))
        }

        func publish(_ message: MQTTMessage) {
            dispatchPrecondition(condition: .onQueue(queue))
            guard !stopped else { return }
            guard connected else {
                guard !message.retain else { return }
                if offline.count < options.offlineQueueLimit { offline.append(message) } else { droppedOffline.increment() }
                return
            }
            send(message)
            updateWatch()
        }

        private func send(_ message: MQTTMessage) {
            var properties: OpaquePointer?
            if let correlation = message.correlationData, version == Int32(MQTT_PROTOCOL_V5) {
                _ = correlation.withUnsafeBytes {
                    api.addBinaryProperty(&properties, Int32(MQTT_PROP_CORRELATION_DATA.rawValue), $0.baseAddress, UInt16(clamping: $0.count))
                }
            }
            defer { if properties != nil { api.freeProperties(&properties) } }
            let rc = message.payload.withUnsafeBytes {
                api.publish(handle, nil, message.topic, Int32($0.count), $0.baseAddress, 1, message.retain, properties)
            }
            if rc != MOSQ_ERR_SUCCESS.rawValue {
                logger.warning("an MQTT message could not be published", [("topic", message.topic), ("error", text(rc))])
            }
        }

        /// The connection ended: the watch goes, the owner is told, and the next attempt waits its backoff.
        private func lost(_ reason: String) {
            watch?.cancel()
            watch = nil
            keepalive.disarm()
            connackDeadline.disarm()
            _ = api.disconnect(handle)
            if connected {
                connected = false
                logger.warning("the MQTT broker went away; connecting again", [("reason", reason)])
                tell(.disconnected(reason: reason))
                backoff = options.firstBackoff
                scheduleRetry()
            } else if backoff == .zero {
                backoff = options.firstBackoff
                retry.arm(after: .zero)
            } else {
                failed(refusedReason ?? reason)
            }
            refusedReason = nil
        }

        /// An attempt failed: said once, and the next one waits the backoff, doubled for the one after.
        private func failed(_ reason: String) {
            logger.warning("MQTT: no connection", [("reason", reason), ("retry_seconds", "\(backoff.components.seconds)")])
            tell(.refused(reason: reason, retry: backoff))
            scheduleRetry()
        }

        private func scheduleRetry() {
            guard !stopped else { return }
            retry.arm(after: backoff)
            backoff = min(backoff * 2, options.maximumBackoff)
        }

        func stop(saying last: [MQTTMessage]) {
            dispatchPrecondition(condition: .onQueue(queue))
            guard !stopped else { return }
            if connected {
                for message in last { send(message) }
                _ = api.disconnect(handle)
                // What is still buffered goes now; the socket is blocking for none of it, so a broker that
                // does not read loses the goodbye and sends the will instead.
                for _ in 0..<8 where api.wantWrite(handle) { _ = api.loopWrite(handle, 1) }
            }
            stopped = true
            connected = false
            watch?.cancel()
            watch = nil
            keepalive.cancel()
            retry.cancel()
            connackDeadline.cancel()
        }
    }
}
