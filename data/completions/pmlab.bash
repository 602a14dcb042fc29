# SPDX-License-Identifier: GPL-2.0-only
# bash completion for pmlab; make install puts it where bash-completion
# finds it (PREFIX/share/bash-completion/completions/pmlab). Names come from
# the pmlab being completed (pmlab complete ...), options from its --help.

_pmlab_words()
{
	"${COMP_WORDS[0]}" complete "$@" 2>/dev/null
}

# The value of option $1 (or $2) given earlier on the line.
_pmlab_value()
{
	local i
	for ((i = 1; i < COMP_CWORD - 1; i++)); do
		if [[ ${COMP_WORDS[i]} == "$1" || ${COMP_WORDS[i]} == "$2" ]]; then
			echo "${COMP_WORDS[i + 1]}"
			return
		fi
	done
}

_pmlab()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
	local i cmd="" at=0
	COMPREPLY=()
	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		-q | --quiet) ;;
		*) cmd=${COMP_WORDS[i]}; at=$i; break ;;
		esac
	done
	if [[ -z $cmd ]]; then
		COMPREPLY=($(compgen -W "$(_pmlab_words commands) --quiet --version --help" -- "$cur"))
		return
	fi
	case $prev in
	-m | --machine)
		COMPREPLY=($(compgen -W "$(_pmlab_words machines)" -- "$cur") $(compgen -f -X '!*.ini' -- "$cur"))
		return ;;
	-w | --workload)
		COMPREPLY=($(compgen -W "$(_pmlab_words workloads) rtapp: replay:" -- "$cur"))
		return ;;
	--cpufreq)
		COMPREPLY=($(compgen -W "$(_pmlab_words cpufreq)" -- "$cur"))
		return ;;
	--cpuidle)
		COMPREPLY=($(compgen -W "$(_pmlab_words cpuidle)" -- "$cur"))
		return ;;
	-g | --governor)
		case $cmd in
		idletrace) COMPREPLY=($(compgen -W "$(_pmlab_words cpuidle)" -- "$cur")) ;;
		govd) COMPREPLY=($(compgen -W "ondemand conservative schedutil" -- "$cur")) ;;
		*) COMPREPLY=($(compgen -W "$(_pmlab_words cpufreq)" -- "$cur")) ;;
		esac
		return ;;
	--profile | --profiles | --baseline)
		COMPREPLY=($(compgen -W "$(_pmlab_words profiles)" -- "$cur"))
		return ;;
	--set)
		local w c f
		w=$(_pmlab_value -w --workload)
		f=$(_pmlab_value --cpufreq --cpufreq)
		c=$(_pmlab_value --cpuidle --cpuidle)
		COMPREPLY=($(compgen -W "$(_pmlab_words keys "${w:-none}" "${f:-none}" "${c:-none}")" -- "$cur"))
		compopt -o nospace 2>/dev/null
		return ;;
	-f | --format)
		COMPREPLY=($(compgen -W "table csv json html" -- "$cur"))
		return ;;
	--root | --profile-dir)
		COMPREPLY=($(compgen -d -- "$cur"))
		return ;;
	-o | --output | --timeline | --trace | -i | --input | --write)
		COMPREPLY=($(compgen -f -- "$cur"))
		return ;;
	esac
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$("${COMP_WORDS[0]}" "$cmd" --help 2>/dev/null |
			grep -oE -- '--[a-z][a-z0-9-]*' | sort -u)" -- "$cur"))
		return
	fi
	if ((COMP_CWORD == at + 1)); then
		case $cmd in
		profile) COMPREPLY=($(compgen -W "show list apply off verify active recommend" -- "$cur")) ; return ;;
		machines) COMPREPLY=($(compgen -W "show" -- "$cur")) ; return ;;
		complete) COMPREPLY=($(compgen -W "commands machines workloads cpufreq cpuidle profiles keys" -- "$cur")) ; return ;;
		help) COMPREPLY=($(compgen -W "$(_pmlab_words commands)" -- "$cur")) ; return ;;
		esac
	fi
	case $cmd in
	profile)
		[[ ${COMP_WORDS[at + 1]} == show || ${COMP_WORDS[at + 1]} == apply ]] &&
			COMPREPLY=($(compgen -W "$(_pmlab_words profiles)" -- "$cur"))
		;;
	machines) COMPREPLY=($(compgen -W "$(_pmlab_words machines)" -- "$cur")) ;;
	replay | merge) COMPREPLY=($(compgen -f -- "$cur")) ;;
	esac
}

complete -F _pmlab pmlab
