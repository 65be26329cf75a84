# A private dbus-daemon for the benchmarks and scripts that run tbrd, otbr-sim and tbrctl outside the
# test suite. Sourced, never run.
#   private_bus SOCKET [XML]   starts a dbus-daemon listening on the Unix socket SOCKET, on which anyone
#                              may own names, send and receive (XML, such as a <limit>, joins its
#                              configuration, written to SOCKET.conf); adds its pid to the caller's
#                              $pids array and returns once the socket exists.

private_bus() {
  local socket=$1 extra=${2:-}
  cat > "$socket.conf" <<CONF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig><type>tbrd-private</type><listen>unix:path=$socket</listen><auth>EXTERNAL</auth>$extra
<policy context="default"><allow user="*"/><allow own="*"/><allow send_destination="*"/><allow receive_sender="*"/></policy></busconfig>
CONF
  dbus-daemon --config-file="$socket.conf" --nofork --nopidfile --nosyslog 2>/dev/null & pids+=($!)
  until [ -S "$socket" ]; do sleep 0.05; done
}
