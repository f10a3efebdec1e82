# SPDX-License-Identifier: GPL-2.0-or-later
# perf script -F comm,ip,sym,dso output to folded stacks named as pfmon
# names them: the process first (its comm, blanks as '_'), then the
# frames root first, ';' between them, then the sample count.  A frame is
# its function, else "[unknown] (BINARY)" when a binary covers the address,
# else "[unknown]"; inlined frames are left out (pfmon's stacks show the
# function that holds the code).
BEGIN { RS = ""; FS = "\n" }
{
	comm = $1
	sub(/^[ \t]+/, "", comm)
	sub(/[ \t]+$/, "", comm)
	gsub(/ /, "_", comm)
	stack = ""
	for (i = NF; i >= 2; i--) {
		line = $i
		if (line ~ /\(inlined\)$/)
			continue
		sub(/^[ \t]+/, "", line)
		dso = line; sub(/^.*\(/, "", dso); sub(/\)$/, "", dso)
		sym = line; sub(/^[0-9a-f]+ /, "", sym); sub(/ \([^(]*\)$/, "", sym); sub(/\+0x[0-9a-f]+$/, "", sym)
		if (sym != "[unknown]" || dso == "[kernel.kallsyms]")
			name = sym
		else if (dso != "[unknown]") {
			n = split(dso, parts, "/")
			name = "[unknown] (" parts[n] ")"
		} else
			name = "[unknown]"
		stack = stack ";" name
	}
	count[comm stack]++
}
END { for (s in count) print s, count[s] }
