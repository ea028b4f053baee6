" Vim and Neovim syntax file for Sit rule models (.sit).
" The word lists are the checker's: lsp/tests/vim.rs compares them with
" sit_parser's keywords, procedures and built-in names, and checks the
" groups Vim gives the tokens of every library model.
if exists('b:current_syntax')
  finish
endif

" Keywords (sit_parser::parse::Keyword, a group for each class).
syn keyword sitInclude     import
syn keyword sitConditional when otherwise
syn keyword sitStatement   reset
syn keyword sitStorage     model param input output real flag pred situation event sub
syn keyword sitModifier    off
syn keyword sitBoolean     true false always

" Built-in values (sit_parser::check::RESERVED).
syn keyword sitBuiltin     time dt on

" Procedures (sit_parser::ir::Func and check::Stateful), before a `(`.
syn match sitProcedure "\<\%(abs\|sign\|sqrt\|exp\|ln\|log10\|sin\|cos\|tan\|asin\|acos\|atan\|atan2\|sinh\|cosh\|tanh\|min\|max\|sum\|prod\|pow\|hypot\|floor\|ceil\|round\|relay\|limit\|deadzone\|integral\|lag\|deriv\|hysteresis\|timer\)\ze\s*("

" The name of a model where it is declared.
syn match sitModelName "\%(\<model\s\+\)\@<=\h\w*"

syn match sitNumber "\<\d\+\%(\.\d*\)\=\%([eE][+-]\=\d\+\)\="
syn match sitNumber "\.\d\+\%([eE][+-]\=\d\+\)\="

syn match sitOperator "=>\|->\|[<>!=]=\|[<>=!&|+*/^-]"
syn match sitOperator "/\%([/*]\)\@!"

syn region sitString start=+"+ skip=+\\[\\"]+ end=+"+ oneline contains=sitEscape
syn match sitEscape +\\[\\"]+ contained

" `#[allow(W0201, reason = "…")]`.
syn region sitAttribute start="#\[" end="\]" contains=sitString

syn keyword sitTodo TODO FIXME XXX NOTE contained
syn match sitDoc "///\%([^/].*\)\=$" contains=sitTodo
syn match sitComment "//\%(/\%($\|[^/]\)\)\@!.*$" contains=sitTodo
syn region sitBlockComment start="/\*" end="\*/" contains=sitBlockComment,sitTodo

hi def link sitInclude      Include
hi def link sitConditional  Conditional
hi def link sitStatement    Statement
hi def link sitStorage      StorageClass
hi def link sitModifier     StorageClass
hi def link sitBoolean      Boolean
hi def link sitBuiltin      Constant
hi def link sitProcedure    Function
hi def link sitModelName    Type
hi def link sitNumber       Number
hi def link sitOperator     Operator
hi def link sitString       String
hi def link sitEscape       SpecialChar
hi def link sitAttribute    PreProc
hi def link sitTodo         Todo
hi def link sitDoc          SpecialComment
hi def link sitComment      Comment
hi def link sitBlockComment Comment

let b:current_syntax = 'sit'
