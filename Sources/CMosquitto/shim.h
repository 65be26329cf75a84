// C shim over Eclipse Mosquitto's client library (Debian: libmosquitto-dev; runtime libmosquitto1).
// libmosquitto is not linked: MQTT's LibMosquitto.swift opens it with dlopen when tbrd's MQTT client is
// first made (`mqtt-url` set), so a tbrd without MQTT never maps it, nor the OpenSSL it links. The
// typedefs give the Swift side each function's exact type.
#ifndef TBRD_CMOSQUITTO_SHIM_H
#define TBRD_CMOSQUITTO_SHIM_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <mosquitto.h>
#include <mqtt_protocol.h>

typedef __typeof__(&mosquitto_lib_init) tbrd_mosq_lib_init;
typedef __typeof__(&mosquitto_new) tbrd_mosq_new;
typedef __typeof__(&mosquitto_destroy) tbrd_mosq_destroy;
typedef __typeof__(&mosquitto_user_data_set) tbrd_mosq_user_data_set;
typedef __typeof__(&mosquitto_int_option) tbrd_mosq_int_option;
typedef __typeof__(&mosquitto_username_pw_set) tbrd_mosq_username_pw_set;
typedef __typeof__(&mosquitto_will_set) tbrd_mosq_will_set;
typedef __typeof__(&mosquitto_tls_set) tbrd_mosq_tls_set;
typedef __typeof__(&mosquitto_connect) tbrd_mosq_connect;
typedef __typeof__(&mosquitto_disconnect) tbrd_mosq_disconnect;
typedef __typeof__(&mosquitto_socket) tbrd_mosq_socket;
typedef __typeof__(&mosquitto_loop_read) tbrd_mosq_loop_read;
typedef __typeof__(&mosquitto_loop_write) tbrd_mosq_loop_write;
typedef __typeof__(&mosquitto_loop_misc) tbrd_mosq_loop_misc;
typedef __typeof__(&mosquitto_want_write) tbrd_mosq_want_write;
typedef __typeof__(&mosquitto_publish_v5) tbrd_mosq_publish_v5;
typedef __typeof__(&mosquitto_subscribe) tbrd_mosq_subscribe;
typedef __typeof__(&mosquitto_connect_v5_callback_set) tbrd_mosq_connect_v5_callback_set;
typedef __typeof__(&mosquitto_disconnect_v5_callback_set) tbrd_mosq_disconnect_v5_callback_set;
typedef __typeof__(&mosquitto_message_v5_callback_set) tbrd_mosq_message_v5_callback_set;
typedef __typeof__(&mosquitto_property_add_binary) tbrd_mosq_property_add_binary;
typedef __typeof__(&mosquitto_property_read_string) tbrd_mosq_property_read_string;
typedef __typeof__(&mosquitto_property_read_binary) tbrd_mosq_property_read_binary;
typedef __typeof__(&mosquitto_property_free_all) tbrd_mosq_property_free_all;
typedef __typeof__(&mosquitto_strerror) tbrd_mosq_strerror;
typedef __typeof__(&mosquitto_connack_string) tbrd_mosq_connack_string;
typedef __typeof__(&mosquitto_reason_string) tbrd_mosq_reason_string;

typedef void (*tbrd_mosq_on_connect)(struct mosquitto *, void *, int, int, const mosquitto_property *);
typedef void (*tbrd_mosq_on_disconnect)(struct mosquitto *, void *, int, const mosquitto_property *);
typedef void (*tbrd_mosq_on_message)(struct mosquitto *, void *, const struct mosquitto_message *, const mosquitto_property *);

#endif
