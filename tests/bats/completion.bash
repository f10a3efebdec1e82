# SPDX-License-Identifier: GPL-2.0-or-later
# complete_line LINE: what bash's completion of pfmon offers for LINE (the
# cursor at its end), one reply a line.  A bash of its own sources
# bash-completion and contrib/pfmon.bash-completion, splits LINE into
# COMP_WORDS as readline does (blanks separate words; a run of the other
# COMP_WORDBREAKS characters, '=' and ':' among them, is a word of its own)
# and calls the completion function with COMP_WORDS, COMP_CWORD, COMP_LINE
# and COMP_POINT set.  pfmon is found in PATH, as in a shell.

BASH_COMPLETION_SCRIPT=${BASH_COMPLETION_SCRIPT:-/usr/share/bash-completion/bash_completion}
# the completion under test (package.bats: the packaged one)
: "${COMPLETION_SCRIPT:=$TESTS_SRCDIR/../contrib/pfmon.bash-completion}"

require_bash_completion() {
	[ -r "$BASH_COMPLETION_SCRIPT" ] || skip "bash-completion is not installed (contrib/install-deps.sh)"
}

complete_line() {
	PATH="$(dirname "$PFMON"):$PATH" bash --norc --noprofile -c '
		source "$1" || exit 1
		source "$2" || exit 1
		# outside a TAB press compopt refuses to run: keep what the
		# completion asked of it, to print it with the replies
		compopt() { opts+=" $*"; }
		line=$3
		COMP_WORDS=() word= kind=
		for ((i = 0; i < ${#line}; i++)); do
			c=${line:i:1}
			if [[ $c == [[:blank:]] ]]; then
				[[ -n $word ]] && COMP_WORDS+=("$word")
				word= kind=
			elif [[ $COMP_WORDBREAKS == *"$c"* ]]; then
				[[ $kind == word ]] && { COMP_WORDS+=("$word"); word=; }
				word+=$c kind=break
			else
				[[ $kind == break ]] && { COMP_WORDS+=("$word"); word=; }
				word+=$c kind=word
			fi
		done
		COMP_WORDS+=("$word")
		COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
		COMP_LINE=$line
		COMP_POINT=${#line}
		COMP_TYPE=9 COMP_KEY=9
		_pfmon "${COMP_WORDS[0]}" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
		((${#COMPREPLY[@]})) && printf "%s\n" "${COMPREPLY[@]}" | sort -u
		[[ -z ${opts-} ]] || echo "<compopt$opts>"
		exit 0
	' complete_line "$BASH_COMPLETION_SCRIPT" "$COMPLETION_SCRIPT" "$1"
}
