#!/bin/sh
# make replicas: three Margin processes on loopback ports, Debian's nginx
# (apt-get install -y nginx) in front with deploy/nginx.conf, run as a
# plain process from a temp dir; the lecture and homework mixes through it,
# one replica SIGKILLed halfway through homework. Prints the loadgen table,
# the requests lost and the proxy cache's hit rate from the access log.
set -eu
DUR=${LOAD_DUR:-10s}
NGINX=$(command -v nginx || echo /usr/sbin/nginx)
[ -x "$NGINX" ] || { echo "replicas: needs nginx (apt-get install -y nginx)"; exit 1; }
T=$(mktemp -d)
PIDS=""
cleanup() { [ -n "${KEEP:-}" ] && cp "$T/error.log" ./replicas-nginx-error.log; for p in $PIDS; do kill "$p" 2>/dev/null || true; done; [ -f "$T/nginx.pid" ] && kill "$(cat "$T/nginx.pid")" 2>/dev/null; sleep 0.5; rm -rf "$T"; }
trap cleanup EXIT
go build -o "$T/margin" ./cmd/web
go build -o "$T/loadgen" ./cmd/loadgen
# four free loopback ports: base for nginx, base+1..3 for the replicas.
base=$(python3 -c 'import socket,random
while True:
    b=random.randrange(20000,60000); ss=[]
    try:
        for i in range(4): s=socket.socket(); s.bind(("127.0.0.1",b+i)); ss.append(s)
        print(b); break
    except OSError: pass
    finally: [s.close() for s in ss]')
for i in 1 2 3; do
	"$T/margin" -addr "127.0.0.1:$((base + i))" >"$T/margin$i.log" 2>&1 &
	PIDS="$PIDS $!"
done
# deploy/nginx.conf with this run's ports and paths.
sed -e "s#127.0.0.1:8081#127.0.0.1:$((base + 1))#; s#127.0.0.1:8082#127.0.0.1:$((base + 2))#; s#127.0.0.1:8083#127.0.0.1:$((base + 3))#" \
    -e "s#listen 8080#listen 127.0.0.1:$base#" \
    -e "s#/var/cache/nginx/margin#$T/cache#; s#/var/log/nginx/margin.log#$T/access.log#" deploy/nginx.conf >"$T/site.conf"
cat >"$T/nginx.conf" <<CONF
user $(id -un);
worker_processes 2;
pid $T/nginx.pid;
error_log $T/error.log warn;
events { worker_connections 4096; }
http {
    client_body_temp_path $T/body; proxy_temp_path $T/proxy;
    fastcgi_temp_path $T/fcgi; uwsgi_temp_path $T/uwsgi; scgi_temp_path $T/scgi;
    include $T/site.conf;
}
CONF
for i in 1 2 3; do
	for j in $(seq 300); do curl -fs "http://127.0.0.1:$((base + i))/healthz" >/dev/null && break; sleep 0.2; done
done
"$NGINX" -p "$T" -c "$T/nginx.conf"
for i in $(seq 100); do curl -fs "http://127.0.0.1:$base/healthz" >/dev/null && break; sleep 0.2; done
victim=$(echo $PIDS | cut -d' ' -f2)
echo "# three replicas on 127.0.0.1:$((base+1))-$((base+3)) behind nginx on :$base; replica pid $victim killed halfway through homework"
"$T/loadgen" -target "http://127.0.0.1:$base" -mixes lecture,homework -dur "$DUR" -kill "$victim"
log="$T/access.log"
# A 503 is a replica shedding load with Retry-After, on purpose; any other
# 5xx is a request lost.
awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^cache=/) c[$i]++; n++ }
     $7 ~ /^5/ && $7 != 503 { lost++ }
     $7 == 503 { shed++ }
     END { printf "# nginx: %d requests, %d answered 5xx other than 503 (lost), %d shed with 503; cache:", n, lost + 0, shed + 0
           for (k in c) printf " %s %d (%.1f%%)", k, c[k], 100 * c[k] / n; print "" }' "$log"
grep -c 'upstream' "$T/error.log" | sed 's/^/# nginx error.log lines naming an upstream (the dead replica, retried): /'
