internal import CDBus

/// Marshals ``DBusValue``s into and out of libdbus messages. Every libdbus iterator call lives here.
enum MessageCodec {
    // MARK: encoding

    /// Appends `values` to `message`'s body.
    static func append(_ values: [DBusValue], to message: OpaquePointer) throws(DBusValueError) {
        var iter = DBusMessageIter()
        LibDBus.c.message_iter_init_append(message, &iter)
        for v in values {
            try v.validate()
            try append(v, to: &iter)
        }
    }

    private static func check(_ ok: dbus_bool_t) throws(DBusValueError) {
        guard ok != 0 else { throw .invalid("libdbus refused the value (out of memory)") }
    }

    private static func appendFixed<T>(_ value: T, _ type: Int32, _ iter: inout DBusMessageIter) throws(DBusValueError) {
        var v = value
        try check(withUnsafePointer(to: &v) { LibDBus.c.message_iter_append_basic(&iter, type, $0) })
    }

    private static func appendString(_ s: String, _ type: Int32, _ iter: inout DBusMessageIter) throws(DBusValueError) {
        guard !s.utf8.contains(0) else { throw .invalid("strings must not contain NUL characters") }
        // libdbus takes a pointer to the value: for a string, a `const char **`.
        try check(s.withCString { chars in withUnsafePointer(to: chars) { LibDBus.c.message_iter_append_basic(&iter, type, $0) } })
    }

    private static func container(
        _ type: Int32, _ signature: String?, _ iter: inout DBusMessageIter,
        _ body: (inout DBusMessageIter) throws(DBusValueError) -> Void
    ) throws(DBusValueError) {
        var sub = DBusMessageIter()
        let opened: dbus_bool_t
        if let signature {
            opened = signature.withCString { LibDBus.c.message_iter_open_container(&iter, type, $0, &sub) }
        } else {
            opened = LibDBus.c.message_iter_open_container(&iter, type, nil, &sub)
        }
        try check(opened)
        do {
            try body(&sub)
        } catch {
            LibDBus.c.message_iter_abandon_container(&iter, &sub)
            throw error
        }
        try check(LibDBus.c.message_iter_close_container(&iter, &sub))
    }

    private static func append(_ value: DBusValue, to iter: inout DBusMessageIter) throws(DBusValueError) {
        switch value {
        case .byte(let v): try appendFixed(v, tbrd_dbus_type_byte, &iter)
        case .bool(let v): try appendFixed(dbus_bool_t(v ? 1 : 0), tbrd_dbus_type_boolean, &iter)
        case .int16(let v): try appendFixed(v, tbrd_dbus_type_int16, &iter)
        case .uint16(let v): try appendFixed(v, tbrd_dbus_type_uint16, &iter)
        case .int32(let v): try appendFixed(v, tbrd_dbus_type_int32, &iter)
        case .uint32(let v): try appendFixed(v, tbrd_dbus_type_uint32, &iter)
        case .int64(let v): try appendFixed(v, tbrd_dbus_type_int64, &iter)
        case .uint64(let v): try appendFixed(v, tbrd_dbus_type_uint64, &iter)
        case .double(let v): try appendFixed(v, tbrd_dbus_type_double, &iter)
        case .string(let s): try appendString(s, tbrd_dbus_type_string, &iter)
        case .objectPath(let p): try appendString(p.rawValue, tbrd_dbus_type_object_path, &iter)
        case .signature(let g): try appendString(g.rawValue, tbrd_dbus_type_signature, &iter)
        case .bytes(let bytes):
            try container(tbrd_dbus_type_array, "y", &iter) { (sub: inout DBusMessageIter) throws(DBusValueError) in
                let ok = bytes.withUnsafeBufferPointer { buf -> dbus_bool_t in
                    var base = UnsafeRawPointer(buf.baseAddress ?? UnsafePointer(bitPattern: 1)!)
                    return LibDBus.c.message_iter_append_fixed_array(&sub, tbrd_dbus_type_byte, &base, Int32(buf.count))
                }
                try check(ok)
            }
        case .array(let element, let items):
            try container(tbrd_dbus_type_array, element.text, &iter) { (sub: inout DBusMessageIter) throws(DBusValueError) in
                for item in items { try append(item, to: &sub) }
            }
        case .dictionary(let k, let v, let entries):
            try container(tbrd_dbus_type_array, "{" + k.text + v.text + "}", &iter) {
                (sub: inout DBusMessageIter) throws(DBusValueError) in
                for e in entries {
                    try container(tbrd_dbus_type_dict_entry, nil, &sub) { (entry: inout DBusMessageIter) throws(DBusValueError) in
                        try append(e.key, to: &entry)
                        try append(e.value, to: &entry)
                    }
                }
            }
        case .structure(let fields):
            try container(tbrd_dbus_type_struct, nil, &iter) { (sub: inout DBusMessageIter) throws(DBusValueError) in
                for f in fields { try append(f, to: &sub) }
            }
        case .variant(let inner):
            try container(tbrd_dbus_type_variant, inner.type.text, &iter) { (sub: inout DBusMessageIter) throws(DBusValueError) in
                try append(inner, to: &sub)
            }
        }
    }

    // MARK: decoding

    /// Decodes the whole body of `message`, guided by its signature.
    static func body(of message: OpaquePointer) throws(DBusValueError) -> (Signature, [DBusValue]) {
        let signatureText = LibDBus.c.message_get_signature(message).map { String(cString: $0) } ?? ""
        let signature: Signature
        do { signature = try Signature(signatureText) } catch { throw .invalid("\(error)") }
        var iter = DBusMessageIter()
        guard LibDBus.c.message_iter_init(message, &iter) != 0 else { return (signature, []) }
        var values: [DBusValue] = []
        values.reserveCapacity(signature.types.count)
        for (i, type) in signature.types.enumerated() {
            values.append(try decode(type, &iter))
            if i + 1 < signature.types.count { _ = LibDBus.c.message_iter_next(&iter) }
        }
        return (signature, values)
    }

    private static func basic<T>(_ iter: inout DBusMessageIter, _ zero: T) -> T {
        var v = zero
        withUnsafeMutablePointer(to: &v) { LibDBus.c.message_iter_get_basic(&iter, $0) }
        return v
    }

    private static func string(_ iter: inout DBusMessageIter) -> String {
        var p: UnsafePointer<CChar>? = nil
        withUnsafeMutablePointer(to: &p) { LibDBus.c.message_iter_get_basic(&iter, $0) }
        return p.map { String(cString: $0) } ?? ""
    }

    private static func decode(_ type: SignatureType, _ iter: inout DBusMessageIter) throws(DBusValueError) -> DBusValue {
        let actual = LibDBus.c.message_iter_get_arg_type(&iter)
        func expect(_ code: Int32) throws(DBusValueError) {
            guard actual == code else {
                throw .typeMismatch(expected: type.text, found: String(UnicodeScalar(UInt8(truncatingIfNeeded: actual))))
            }
        }
        switch type {
        case .byte: try expect(tbrd_dbus_type_byte); return .byte(basic(&iter, UInt8(0)))
        case .boolean: try expect(tbrd_dbus_type_boolean); return .bool(basic(&iter, dbus_bool_t(0)) != 0)
        case .int16: try expect(tbrd_dbus_type_int16); return .int16(basic(&iter, Int16(0)))
        case .uint16: try expect(tbrd_dbus_type_uint16); return .uint16(basic(&iter, UInt16(0)))
        case .int32: try expect(tbrd_dbus_type_int32); return .int32(basic(&iter, Int32(0)))
        case .uint32: try expect(tbrd_dbus_type_uint32); return .uint32(basic(&iter, UInt32(0)))
        case .int64: try expect(tbrd_dbus_type_int64); return .int64(basic(&iter, Int64(0)))
        case .uint64: try expect(tbrd_dbus_type_uint64); return .uint64(basic(&iter, UInt64(0)))
        case .double: try expect(tbrd_dbus_type_double); return .double(basic(&iter, Double(0)))
        case .string: try expect(tbrd_dbus_type_string); return .string(string(&iter))
        case .objectPath:
            try expect(tbrd_dbus_type_object_path)
            return .objectPath(ObjectPath(unchecked: string(&iter)))
        case .signature:
            try expect(tbrd_dbus_type_signature)
            do { return .signature(try Signature(string(&iter))) } catch { throw .invalid("\(error)") }
        case .unixFD:
            throw .invalid("unix file descriptors are not supported")
        case .variant:
            try expect(tbrd_dbus_type_variant)
            var sub = DBusMessageIter()
            LibDBus.c.message_iter_recurse(&iter, &sub)
            guard let raw = LibDBus.c.message_iter_get_signature(&sub) else { throw .invalid("variant without signature") }
            let text = String(cString: raw)
            LibDBus.c.free(raw)
            let inner: Signature
            do { inner = try Signature(text) } catch { throw .invalid("\(error)") }
            guard inner.types.count == 1 else { throw .invalid("variant signature \(text) is not one type") }
            return .variant(try decode(inner.types[0], &sub))
        case .array(let element):
            try expect(tbrd_dbus_type_array)
            var sub = DBusMessageIter()
            LibDBus.c.message_iter_recurse(&iter, &sub)
            if element == .byte {
                var ptr: UnsafeRawPointer? = nil
                var count: Int32 = 0
                withUnsafeMutablePointer(to: &ptr) { LibDBus.c.message_iter_get_fixed_array(&sub, $0, &count) }
                guard count > 0, let ptr else { return .bytes([]) }
                return .bytes(Array(UnsafeRawBufferPointer(start: ptr, count: Int(count))))
            }
            var items: [DBusValue] = []
            while LibDBus.c.message_iter_get_arg_type(&sub) != tbrd_dbus_type_invalid {
                items.append(try decode(element, &sub))
                _ = LibDBus.c.message_iter_next(&sub)
            }
            return .array(element: element, items)
        case .dictionary(let k, let v):
            try expect(tbrd_dbus_type_array)
            var sub = DBusMessageIter()
            LibDBus.c.message_iter_recurse(&iter, &sub)
            var entries: [DBusValue.DictEntry] = []
            while LibDBus.c.message_iter_get_arg_type(&sub) == tbrd_dbus_type_dict_entry {
                var entry = DBusMessageIter()
                LibDBus.c.message_iter_recurse(&sub, &entry)
                let key = try decode(k, &entry)
                _ = LibDBus.c.message_iter_next(&entry)
                let value = try decode(v, &entry)
                entries.append(.init(key: key, value: value))
                _ = LibDBus.c.message_iter_next(&sub)
            }
            return .dictionary(key: k, value: v, entries)
        case .structure(let fieldTypes):
            try expect(tbrd_dbus_type_struct)
            var sub = DBusMessageIter()
            LibDBus.c.message_iter_recurse(&iter, &sub)
            var fields: [DBusValue] = []
            fields.reserveCapacity(fieldTypes.count)
            for (i, t) in fieldTypes.enumerated() {
                fields.append(try decode(t, &sub))
                if i + 1 < fieldTypes.count { _ = LibDBus.c.message_iter_next(&sub) }
            }
            return .structure(fields)
        }
    }
}
