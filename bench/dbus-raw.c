/* The libdbus baseline for bench/dbus.sh: the same round trips as bench/DBusBench, in C. */
#include <dbus/dbus.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static DBusMessage *make_call(void) {
    DBusMessage *m = dbus_message_new_method_call("org.freedesktop.DBus", "/org/freedesktop/DBus",
                                                  "org.freedesktop.DBus", "GetNameOwner");
    const char *name = "org.freedesktop.DBus";
    dbus_message_append_args(m, DBUS_TYPE_STRING, &name, DBUS_TYPE_INVALID);
    return m;
}

int main(int argc, char **argv) {
    if (argc < 4) { fprintf(stderr, "usage: %s ADDRESS CALLS WINDOW\n", argv[0]); return 64; }
    const char *address = argv[1];
    long calls = atol(argv[2]);
    long window = atol(argv[3]);
    DBusError err;
    dbus_error_init(&err);
    DBusConnection *c = dbus_connection_open_private(address, &err);
    if (!c || !dbus_bus_register(c, &err)) { fprintf(stderr, "connect: %s\n", err.message); return 69; }

    double t0 = now();
    if (window <= 1) {
        for (long i = 0; i < calls; i++) {
            DBusMessage *m = make_call();
            DBusMessage *r = dbus_connection_send_with_reply_and_block(c, m, 25000, &err);
            if (!r) { fprintf(stderr, "call: %s\n", err.message); return 1; }
            dbus_message_unref(m);
            dbus_message_unref(r);
        }
    } else {
        long sent = 0, received = 0;
        while (received < calls) {
            while (sent < calls && sent - received < window) {
                DBusMessage *m = make_call();
                dbus_connection_send(c, m, NULL);
                dbus_message_unref(m);
                sent++;
            }
            dbus_connection_read_write(c, -1);
            DBusMessage *r;
            while ((r = dbus_connection_pop_message(c)) != NULL) {
                if (dbus_message_get_type(r) == DBUS_MESSAGE_TYPE_METHOD_RETURN) received++;
                dbus_message_unref(r);
            }
        }
    }
    double dt = now() - t0;
    printf("%.0f\n", calls / dt);
    dbus_connection_close(c);
    dbus_connection_unref(c);
    return 0;
}
