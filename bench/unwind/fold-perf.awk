# perf script -F ip,sym,dso output to folded stacks (root first, ';'
# between frames, then the sample count), named as pfmon names frames:
# a function, else binary+0xOFFSET, else [unknown 0xADDRESS] when no
# binary covers the address; inlined frames are left out (pfmon's folded
# stacks show the function that holds the code).
BEGIN { RS = ""; FS = "\n" }
{
	stack = ""
	for (i = NF; i >= 1; i--) {
		line = $i
		if (line ~ /\(inlined\)$/)
			continue
		sub(/^[ \t]+/, "", line)
		addr = line; sub(/ .*/, "", addr)
		dso = line; sub(/^.*\(/, "", dso); sub(/\)$/, "", dso)
		sym = line; sub(/^[0-9a-f]+ /, "", sym); sub(/ \([^(]*\)$/, "", sym); sub(/\+0x[0-9a-f]+$/, "", sym)
		if (dso == "[kernel.kallsyms]")
			name = sym
		else if (sym != "[unknown]")
			name = sym
		else if (dso != "[unknown]") {
			n = split(dso, parts, "/")
			name = parts[n] "+0x" addr
		} else
			name = "[unknown 0x" addr "]"
		stack = stack (stack == "" ? "" : ";") name
	}
	if (stack != "")
		count[stack]++
}
END { for (s in count) print s, count[s] }
