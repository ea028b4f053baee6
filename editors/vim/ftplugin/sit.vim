" Vim and Neovim: settings for Sit rule models (the layout of `sitc fmt`).
if exists('b:did_ftplugin')
  finish
endif
let b:did_ftplugin = 1

setlocal expandtab shiftwidth=4 softtabstop=4 tabstop=4
setlocal commentstring=//\ %s
setlocal comments=s1:/*,mb:*,ex:*/,:///,://
" `gq` over the whole file (gggqG) formats it with the canonical layout.
setlocal formatprg=sitc\ fmt\ -

let b:undo_ftplugin = 'setlocal expandtab< shiftwidth< softtabstop< tabstop<'
      \ . ' commentstring< comments< formatprg<'
