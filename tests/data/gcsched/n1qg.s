'./gcwork' +RTS '-N1' '-qg' '-l' '-oln1qg.eventlog' '-sn1qg.s' 
     366,293,576 bytes allocated in the heap
     189,974,024 bytes copied during GC
       6,505,808 bytes maximum residency (14 sample(s))
          48,112 bytes maximum slop
              24 MiB total memory in use (0 MiB lost due to fragmentation)

                                     Tot time (elapsed)  Avg pause  Max pause
  Gen  0        74 colls,     0 par    0.070s   0.304s     0.0041s    0.0650s
  Gen  1        14 colls,     0 par    0.044s   0.173s     0.0123s    0.0656s

  TASKS: 4 (1 bound, 3 peak workers (3 total), using -N1)

  SPARKS: 0 (0 converted, 0 overflowed, 0 dud, 0 GC'd, 0 fizzled)

  INIT    time    0.001s  (  0.001s elapsed)
  MUT     time    0.087s  (  0.319s elapsed)
  GC      time    0.114s  (  0.477s elapsed)
  EXIT    time    0.000s  (  0.004s elapsed)
  Total   time    0.202s  (  0.801s elapsed)

  Alloc rate    4,218,894,554 bytes per MUT second

  Productivity  43.0% of total user, 39.9% of total elapsed

