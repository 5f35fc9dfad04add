# Sourced by the bench scripts (run from the repository's root).
# freeport: a loopback port nothing listens on (other work on the machine may hold fixed ones),
# below the kernel's range for outgoing connections (whose local ports a listener cannot take).
freeport() {
  local p lo
  read -r lo _ </proc/sys/net/ipv4/ip_local_port_range
  while :; do
    p=$((10000 + RANDOM % (lo - 10000)))
    (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null || { echo "$p"; return; }
  done
}
