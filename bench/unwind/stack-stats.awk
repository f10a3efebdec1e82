# Statistics of folded stacks: how many distinct stacks and samples, and
# how many of them are "unknown": their outermost frame is not a process's
# or thread's first function (the unwinding stopped early, or an
# [unwind: ...] marker says why), or a frame is an address no binary
# covers ([unknown 0x...]).
{
	n = $NF
	$NF = ""
	sub(/ $/, "")
	k = split($0, fr, ";")
	stacks++
	samples += n
	bad = fr[1] !~ /^(_start|_dl_start_user|clone3?|__clone3?|start_thread)$/
	for (i = 1; i <= k && !bad; i++)
		bad = fr[i] ~ /^\[unknown 0x/
	if (bad) {
		unknown_stacks++
		unknown_samples += n
	}
}
END {
	printf "stacks %d samples %d unknown_stacks %d unknown_samples %d\n", stacks, samples, unknown_stacks,
	       unknown_samples
}
