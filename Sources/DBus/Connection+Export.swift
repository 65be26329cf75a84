import TBRFoundation
extension Connection {
    /// Exports `interfaces` at `path`, replacing whatever was exported there.
    ///
    /// `org.freedesktop.DBus.Introspectable`, `Properties` and `Peer` are provided for every object;
    /// an object that declares its own `Properties` or `Introspectable` interface gets that one instead.
    public func export(_ interfaces: [Interface], at path: ObjectPath) {
        var map: [InterfaceName: Interface] = [:]
        for i in interfaces { map[i.name] = i }
        objects[path] = ExportedObject(interfaces: map, order: interfaces.map(\.name))
    }

    /// Stops exporting the object at `path`; later calls to it fail with `UnknownObject`.
    public func unexport(_ path: ObjectPath) {
        objects[path] = nil
    }

    /// The paths currently exported.
    public var exportedPaths: [ObjectPath] { objects.keys.sorted() }

    /// Emits `org.freedesktop.DBus.Properties.PropertiesChanged` for `interface` at `path`.
    public nonisolated func emitPropertiesChanged(
        path: ObjectPath, interface: InterfaceName, changed: [(MemberName, DBusValue)], invalidated: [MemberName] = []
    ) throws(DBusError) {
        let dict = DBusValue.dictionary(
            key: .string, value: .variant,
            changed.map { .init(key: .string($0.0.rawValue), value: .variant($0.1)) })
        let inval = DBusValue.array(element: .string, invalidated.map { .string($0.rawValue) })
        try emit(path: path, interface: .properties, member: "PropertiesChanged",
                 arguments: [.string(interface.rawValue), dict, inval])
    }

    /// The introspection XML for `path` (what a peer's `Introspect` call returns).
    public func introspectionXML(for path: ObjectPath) -> String {
        let object = objects[path]
        let interfaces = object.map { o in o.order.compactMap { o.interfaces[$0] } } ?? []
        return Introspection.xml(interfaces: interfaces, children: children(of: path))
    }

    /// Names of the nodes directly below `path` that lead to exported objects.
    func children(of path: ObjectPath) -> [String] {
        let depth = path.elements.count
        var names = Set<String>()
        for p in objects.keys where p != path && p.isDescendant(of: path) {
            let elements = p.elements
            if elements.count > depth { names.insert(String(elements[depth])) }
        }
        return names.sorted()
    }

    // MARK: dispatch of incoming calls

    /// Routes a method call to an exported object; returns false to let libdbus answer (never, today:
    /// every call addressed to this connection gets a reply from here).
    func dispatchMethodCall(_ message: Message) -> Bool {
        guard let path = message.path, let member = message.member else { return false }
        let call = MethodCall(message: message)
        let object = objects[path]
        let iface = message.interface

        // A declared interface wins over the built-in standard ones.
        if let object {
            if let iface, let declared = object.interfaces[iface] {
                if let method = declared.method(member) {
                    run(method, call)
                } else {
                    replyError(call, .unknownMethod, "no method \(member) in interface \(iface) at \(path)")
                }
                return true
            }
            if iface == nil {
                for name in object.order {
                    if let method = object.interfaces[name]?.method(member) {
                        run(method, call)
                        return true
                    }
                }
            }
        }
        if iface == .introspectable || (iface == nil && member.rawValue == "Introspect") {
            guard member.rawValue == "Introspect" else {
                replyError(call, .unknownMethod, "no method \(member) in interface \(InterfaceName.introspectable)")
                return true
            }
            guard object != nil || !children(of: path).isEmpty || path == .root else {
                replyError(call, .unknownObject, "no object at \(path)")
                return true
            }
            reply(call, [.string(introspectionXML(for: path))])
            return true
        }
        guard let object else {
            replyError(call, .unknownObject, "no object at \(path)")
            return true
        }
        if iface == .properties || (iface == nil && ["Get", "Set", "GetAll"].contains(member.rawValue)) {
            handleProperties(object: object, call: call)
            return true
        }
        replyError(call, .unknownMethod,
                   "no method \(member)\(message.signature.rawValue.isEmpty ? "" : " with signature \(message.signature)") at \(path)")
        return true
    }

    private func run(_ method: Method, _ call: MethodCall) {
        if method.checksArguments {
            let expected = Signature(method.inputs.map(\.type))
            guard call.message.signature == expected else {
                replyError(call, .invalidArgs,
                           "\(method.name) takes signature '\(expected)' but was called with '\(call.message.signature)'")
                return
            }
        }
        let handler = method.handler
        spawn(call) { try await handler(call) }
    }

    /// Runs `work` for `call` in a task the connection cancels when it closes or is released, then
    /// replies with its result. The task holds the connection weakly: a running handler does not keep
    /// a dropped connection alive.
    ///
    /// After ``handleCallsInArrivalOrder()`` the tasks run on one serial executor of the connection's:
    /// each handler starts, and runs until it first waits, in the order its call arrived.
    func spawn(_ call: MethodCall, _ work: @escaping @Sendable () async throws -> [DBusValue]) {
        let id = nextMethodTaskID
        nextMethodTaskID += 1
        let decided = decidedReplies
        let body: @Sendable () async -> Void = { [weak self] in
            let result: Result<[DBusValue], any Error>
            do { result = .success(try await work()) } catch { result = .failure(error) }
            // Decided: a close from now on sends it before it closes (see flushDecidedReplies).
            decided.withLock { $0[id] = (call, result) }
            await self?.finish(id)
        }
        methodTaskCalls[id] = (call.sender, call.message.serial)
        if let arrivalOrder {
            methodTasks[id] = Task(executorPreference: arrivalOrder, operation: body)
        } else {
            methodTasks[id] = Task(operation: body)
        }
    }

    /// Makes method handlers start in the order their calls arrived: each runs on one serial executor
    /// until it first waits (entering an actor, for example), before the next one starts. A server that
    /// must answer as one that handles a message at a time does (otbr-sim playing otbr-agent: a read
    /// sent just before a command sees the state before it) calls this before exporting; handlers that
    /// wait still overlap. Without it handlers start concurrently, in no particular order.
    public func handleCallsInArrivalOrder() {
        if arrivalOrder == nil { arrivalOrder = SerialTaskExecutor(label: "tbrd.dbus.handlers") }
    }

    /// Waits until every method handler running now has returned and its reply has been handed to
    /// libdbus (which ``close()`` flushes): a server that stops refusing new calls first loses no reply.
    public func handlersFinished() async {
        for task in Array(methodTasks.values) { await task.value }
    }

    /// Waits until the handler of `call` has returned and its reply has been handed to libdbus (which
    /// ``close()`` flushes), or at once when it is not being handled. Called from another task than that
    /// handler's: a server that leaves the bus right after answering one call (otbr-sim playing a crash)
    /// waits for that call only, never for the others, which a crash leaves unanswered.
    public func replied(to call: MethodCall) async {
        let serial = call.message.serial, sender = call.sender
        guard let id = methodTaskCalls.first(where: { $0.value.serial == serial && $0.value.sender == sender })?.key,
            let task = methodTasks[id]
        else { return }
        await task.value
    }

    private func finish(_ id: UInt64) {
        methodTasks[id] = nil
        methodTaskCalls[id] = nil
        guard let (call, result) = decidedReplies.withLock({ $0.removeValue(forKey: id) }) else { return }
        send(call, result)
    }

    /// Sends the replies of handlers that have returned but whose task has not yet handed the reply to
    /// the connection, in the order the calls were made: a server that closes right after answering
    /// (otbr-sim playing a crash, or the agent's exit after `LeaveNetwork`) still delivers the answer.
    func flushDecidedReplies() {
        let ready = decidedReplies.withLock { replies in
            defer { replies.removeAll() }
            return replies.sorted { $0.key < $1.key }.map(\.value)
        }
        for (call, result) in ready { send(call, result) }
    }

    private func send(_ call: MethodCall, _ result: Result<[DBusValue], any Error>) {
        switch result {
        case .success(let values): reply(call, values)
        case .failure(let error as DBusError): replyError(call, error.name, error.message)
        case .failure(let error): replyError(call, .failed, "\(error)")
        }
    }

    func reply(_ call: MethodCall, _ values: [DBusValue]) {
        guard !call.message.noReplyExpected, isOpen else { return }
        do {
            let m = try OutgoingMessage.methodReturn(to: call.message.sender, replySerial: call.message.serial, body: values)
            _ = try send(m)
        } catch {
            logger.warning("could not send a method reply", [("member", call.message.member?.rawValue ?? ""),
                                                             ("error", "\(error)")])
            replyError(call, .failed, "the reply could not be encoded: \(error)")
        }
    }

    func replyError(_ call: MethodCall, _ name: ErrorName, _ text: String) {
        guard !call.message.noReplyExpected, isOpen else { return }
        if let m = try? OutgoingMessage.error(to: call.message.sender, replySerial: call.message.serial, name: name, message: text) {
            _ = try? send(m)
        }
    }
}
