module calltree.test/pprofprog

go 1.19
