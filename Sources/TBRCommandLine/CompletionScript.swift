/// A shell completion script generated from a command tree (`PROGRAM --generate-completion-script
/// SHELL`). It completes command words, options, option values and positionals as
/// ``ValueCompletion`` reads them from the declarations, so the tree stays the one source.
///
/// The bash and zsh scripts share one design: they walk the words before the cursor as the parser does
/// (options may stand anywhere, an option that takes a value consumes the next word), find the command
/// reached, and answer from small `case` tables generated here. fish gets the same walk as a function
/// and one `complete` line per command and option.
public enum CompletionScript {
    /// A shell whose completion can be generated.
    public enum Shell: String, CaseIterable, Sendable {
        case bash, zsh, fish
    }

    /// The completion script for `shell` of the tree under `root`.
    public static func render(_ shell: Shell, root: any ParsableCommand.Type) -> String {
        let model = CompletionModel(root: root)
        return switch shell {
        case .bash: ShellTables(model: model).bash()
        case .zsh: ShellTables(model: model).zsh()
        case .fish: FishCompletion(model: model).render()
        }
    }
}

/// The `case` tables the bash and zsh scripts share, and the two scripts around them.
struct ShellTables {
    let model: CompletionModel

    /// `tbrctl` → `_tbrctl`; `otbr-sim` → `_otbr_sim`.
    var prefix: String { "_" + model.program.replacingDashes }

    /// A completion as the scripts' reply function reads it.
    static func key(_ completion: ValueCompletion) -> String {
        switch completion {
        case .nothing: "none"
        case .words(let words): "words:" + words.joined(separator: " ")
        case .files: "files"
        case .directories: "dirs"
        case .program(let arguments): "program:" + arguments.joined(separator: " ")
        }
    }

    /// The functions both shells read: subcommands and options by command path, what a value option
    /// completes, and what each positional completes (`PATH:INDEX`).
    func tables() -> String {
        var subcommands: [String] = []
        var options: [String] = []
        var positionals: [String] = []
        for command in model.commands {
            let path = command.path
            if !command.subcommands.isEmpty {
                subcommands.append("        '\(path)') echo '\(command.subcommands.map(\.name).joined(separator: " "))' ;;")
            }
            options.append("        '\(path)') echo '\(command.options.flatMap(\.words).joined(separator: " "))' ;;")
            for (index, completion) in command.positionals.enumerated() {
                let isLast = index == command.positionals.count - 1
                let pattern = isLast && command.lastRepeats ? "'\(path):'*" : "'\(path):\(index)'"
                positionals.append("        \(pattern)) echo '\(Self.key(completion))' ;;")
            }
        }
        let values = model.valueOptions.map { option in
            "        \(option.words.joined(separator: "|"))) echo '\(Self.key(option.value ?? .nothing))' ;;"
        }
        func function(_ name: String, _ comment: String, _ rows: [String]) -> String {
            "# \(comment)\n\(prefix)_\(name)() {\n    case \"$1\" in\n\(rows.joined(separator: "\n"))\n    esac\n}\n"
        }
        return [
            function("subcommands", "The command words below a command path.", subcommands),
            function("options", "The options a command path accepts.", options),
            function("value", "What the value of an option completes to; empty for flags and unknown words.", values),
            function("positional", "What positional INDEX of a command path completes to, given as PATH:INDEX.", positionals),
        ].joined(separator: "\n")
    }

    /// The walk over the words before the cursor, in the syntax bash and zsh share. `first` is the
    /// index of the first word after the program name, `current` the expression of the cursor's index.
    private func walk(words: String, first: Int, current: String) -> String {
        """
            local cmdpath='\(model.program)' npos=0 skip=0 i w
            for (( i = \(first); i < \(current); i++ )); do
                w="${\(words)[i]}"
                if (( skip )); then skip=0; continue; fi
                case "$w" in
                    --*=*) ;;
                    -) npos=$((npos + 1)) ;;
                    -*) [[ -n "$(\(prefix)_value "$w")" ]] && skip=1 ;;
                    *)
                        if (( npos == 0 )) && [[ " $(\(prefix)_subcommands "$cmdpath") " == *" $w "* ]]; then
                            cmdpath="$cmdpath $w"
                        else
                            npos=$((npos + 1))
                        fi
                        ;;
                esac
            done
        """
    }

    func bash() -> String {
        let p = prefix
        return """
            # bash completion for \(model.program), generated by '\(model.program) --generate-completion-script bash'.

            \(tables())
            # Sets COMPREPLY to what KEY (a value of the tables above) offers for $cur.
            \(p)_reply() {
                case "$1" in
                    words:*) COMPREPLY=($(compgen -W "${1#words:}" -- "$cur")) ;;
                    files) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "$cur")) ;;
                    dirs) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -d -- "$cur")) ;;
                    program:*) COMPREPLY=($(compgen -W "$("$2" ${1#program:} 2>/dev/null)" -- "$cur")) ;;
                    *) COMPREPLY=() ;;
                esac
            }

            \(p)() {
                local cur prev words cword key subs
                if declare -F _get_comp_words_by_ref >/dev/null 2>&1; then
                    _get_comp_words_by_ref -n =: cur prev words cword
                else
                    words=("${COMP_WORDS[@]}")
                    cword=$COMP_CWORD
                    cur="${words[cword]}"
                fi
            \(walk(words: "words", first: 1, current: "cword"))
                COMPREPLY=()
                subs="$(\(p)_subcommands "$cmdpath")"
                if (( skip )); then
                    \(p)_reply "$(\(p)_value "${words[cword - 1]}")" "${words[0]}"
                elif [[ "$cur" == -?* ]]; then
                    COMPREPLY=($(compgen -W "$(\(p)_options "$cmdpath")" -- "$cur"))
                elif [[ -n "$subs" ]] && (( npos == 0 )); then
                    COMPREPLY=($(compgen -W "$subs" -- "$cur"))
                else
                    key="$(\(p)_positional "$cmdpath:$npos")"
                    [[ -n "$key" ]] && \(p)_reply "$key" "${words[0]}"
                fi
                return 0
            }
            complete -F \(p) \(model.program)

            """
    }

    func zsh() -> String {
        let p = prefix
        return """
            #compdef \(model.program)
            # zsh completion for \(model.program), generated by '\(model.program) --generate-completion-script zsh'.

            \(tables())
            # Offers what KEY (a value of the tables above) completes to.
            \(p)_reply() {
                case "$1" in
                    words:*) compadd -- ${=${1#words:}} ;;
                    files) _files ;;
                    dirs) _files -/ ;;
                    program:*) compadd -- ${(f)"$("$2" ${=${1#program:}} 2>/dev/null)"} ;;
                esac
            }

            \(p)() {
                local cur="${words[CURRENT]}" key subs
            \(walk(words: "words", first: 2, current: "CURRENT"))
                subs="$(\(p)_subcommands "$cmdpath")"
                if (( skip )); then
                    \(p)_reply "$(\(p)_value "${words[CURRENT - 1]}")" "${words[1]}"
                elif [[ "$cur" == -?* ]]; then
                    compadd -- ${=$(\(p)_options "$cmdpath")}
                elif [[ -n "$subs" ]] && (( npos == 0 )); then
                    compadd -- ${=subs}
                else
                    key="$(\(p)_positional "$cmdpath:$npos")"
                    [[ -n "$key" ]] && \(p)_reply "$key" "${words[1]}"
                fi
                return 0
            }

            if [[ "${zsh_eval_context[-1]}" == loadautofunc ]]; then
                \(p) "$@"
            else
                compdef \(p) \(model.program)
            fi

            """
    }
}

extension String {
    /// The name with `-` replaced by `_`, for shell function names.
    var replacingDashes: String { String(map { $0 == "-" ? "_" : $0 }) }
}
