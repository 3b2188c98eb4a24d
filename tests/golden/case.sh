# Sourced by tests/golden/run and tests/golden/check, from the top of the
# tree: the fixtures' short names the cases use, every tool of tools.list
# on PATH by its name, as an installed one would be (with MEMSTAT_BINDIR
# the installed ones, also where a case says NAME/NAME), and one case run.
S=fixtures/freebsd/streams C=fixtures/freebsd/captures B=fixtures/bad/stream
L=fixtures/linux/captures LB=fixtures/bad/linux BC=fixtures/bad/capture
K=fixtures/linux/kmemtrace KB=fixtures/bad/kmemtrace
export S C B L LB BC K KB
golden_tools=$(sed -e 's/#.*//' tools.list)
if [ -n "${MEMSTAT_BINDIR:-}" ]; then
	PATH=$MEMSTAT_BINDIR:$PATH
else
	for t in $golden_tools; do PATH=$PWD/$t:$PATH; done
fi
export PATH

# golden_run COMMAND OUT ERR: its stdout to OUT, its stderr and then
# "exit N" to ERR; stdin /dev/null unless the command redirects it.
golden_run() {
	cmd=$1
	if [ -n "${MEMSTAT_BINDIR:-}" ]; then
		for t in $golden_tools; do
			cmd=$(printf '%s\n' "$cmd" | sed "s#$t/$t#$t#g")
		done
	fi
	case "$cmd" in
	*"<"*) LC_ALL=C sh -c "$cmd" > "$2" 2> "$3" ;;
	*) LC_ALL=C sh -c "$cmd" > "$2" 2> "$3" < /dev/null ;;
	esac
	echo "exit $?" >> "$3"
}
