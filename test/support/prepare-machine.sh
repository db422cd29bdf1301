#!/usr/bin/env bash
# What `npm test` needs from the machine, prepared where it can be and checked where it cannot, each with a message
# that says what to do. Run by `npm test` before anything else; idempotent, and quick when all is in place.
# - Debian's chromium at /usr/bin/chromium (the typed client's browser test): installed with apt-get when missing.
# - RabbitMQ on 127.0.0.1:5672 (guest/guest) with its STOMP plugins (Web-STOMP on 15674; the relay and cluster
#   tests): the plugins are enabled when Web-STOMP does not answer.
# - Redis on 127.0.0.1:6379 (the cluster and rate-limit tests).
# - Debian's nginx at /usr/sbin/nginx (the rolling-restart test runs its own on a free port): installed with apt-get
#   when missing, and its system service stopped and disabled, so that nothing listens on port 80 because of it.
# The machine starts RabbitMQ and Redis itself; this script does not.
set -euo pipefail

fail() {
  echo "npm test: $*" >&2
  exit 1
}

# As root directly, else through sudo when it needs no password; empty when neither works.
as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; elif sudo -n true 2>/dev/null; then sudo -n "$@"; else return 1; fi
}

reachable() {
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# Waits up to $2 seconds for port $1 (a service that is starting with the machine).
wait_for_port() {
  for _ in $(seq "$2"); do reachable "$1" && return 0; sleep 1; done
  reachable "$1"
}

if [ ! -x /usr/bin/chromium ]; then
  echo "npm test: installing Debian's chromium for the client's browser test (apt-get)" >&2
  as_root bash -c 'apt-get update -qq && apt-get install -y -qq chromium >/dev/null' ||
    fail "/usr/bin/chromium is missing and could not be installed: run 'apt-get install -y chromium' as root"
fi

# The package's postinst starts the service where policy-rc.d allows it; the test needs only the binary.
if [ ! -x /usr/sbin/nginx ]; then
  echo "npm test: installing Debian's nginx for the rolling-restart test (apt-get); its service is not kept running" >&2
  as_root bash -c 'apt-get update -qq && apt-get install -y -qq nginx >/dev/null' ||
    fail "/usr/sbin/nginx is missing and could not be installed: run 'apt-get install -y nginx' as root"
  as_root bash -c '(systemctl disable --now nginx || (service nginx stop; update-rc.d nginx disable)) >/dev/null 2>&1' ||
    echo "npm test: nginx's system service could not be stopped; the test does not need it" >&2
fi

wait_for_port 5672 30 || fail "RabbitMQ is not reachable on 127.0.0.1:5672; start it (guest/guest) and run npm test again"
if ! reachable 15674; then
  echo "npm test: enabling RabbitMQ's STOMP plugins (rabbitmq_stomp, rabbitmq_web_stomp)" >&2
  as_root rabbitmq-plugins enable --quiet rabbitmq_stomp rabbitmq_web_stomp >/dev/null ||
    fail "RabbitMQ's STOMP plugins could not be enabled: run 'rabbitmq-plugins enable rabbitmq_stomp rabbitmq_web_stomp' as root"
  wait_for_port 15674 30 || fail "RabbitMQ Web-STOMP does not answer on 127.0.0.1:15674 after enabling the plugins"
fi

wait_for_port 6379 30 || fail "Redis is not reachable on 127.0.0.1:6379; start it (e.g. 'redis-server --daemonize yes')"
