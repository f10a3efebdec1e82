# SPDX-License-Identifier: GPL-2.0-or-later
# Statistics of folded stacks (pfmon's, or perf's through fold-perf.awk:
# the process first, then the frames root first): how many distinct stacks
# and samples, and how many of them are "unknown": the outermost frame
# after the process is not a program's or thread's first function (the
# unwinding stopped early; pfmon's [unwind: ...] frame says why), or a frame
# is an address no binary covers ([unknown]).
{
	n = $NF
	$NF = ""
	sub(/ $/, "")
	k = split($0, fr, ";")
	stacks++
	samples += n
	bad = k < 2 || fr[2] !~ /^(_start|_dl_start_user|clone3?|__clone3?|start_thread)$/
	for (i = 2; i <= k && !bad; i++)
		bad = fr[i] == "[unknown]"
	if (bad) {
		unknown_stacks++
		unknown_samples += n
	}
}
END {
	printf "stacks %d samples %d unknown_stacks %d unknown_samples %d\n", stacks, samples, unknown_stacks,
	       unknown_samples
}
