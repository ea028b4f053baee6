" Vim and Neovim: files ending in .sit are Sit rule models.
autocmd BufRead,BufNewFile *.sit setfiletype sit
