#!/bin/sh
# ./make: make, on a Debian 12 machine that may not have it yet.  A minimal
# Debian (debootstrap --variant=minbase) has no make, so "make run" could
# not even start there; this wrapper, like Gradle's ./gradlew, needs only
# sh: when make is missing it installs it, with the other packages the
# set-up needs (scripts/ensure-deps says which and how, or what to run as
# root), then runs make with the same arguments.
#
#	./make run	./make check	./make bench	...
set -eu
cd "$(dirname "$0")"
if ! command -v make > /dev/null 2>&1; then
	sh scripts/ensure-deps
fi
exec make "$@"
