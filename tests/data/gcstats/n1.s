'./gcwork' +RTS '-N1' '-l-agu' '-oln1.eventlog' '-sn1.s' 
     366,293,576 bytes allocated in the heap
     189,118,544 bytes copied during GC
       6,505,344 bytes maximum residency (15 sample(s))
          48,496 bytes maximum slop
              24 MiB total memory in use (0 MiB lost due to fragmentation)

                                     Tot time (elapsed)  Avg pause  Max pause
  Gen  0        73 colls,     0 par    0.062s   0.145s     0.0020s    0.0160s
  Gen  1        15 colls,     0 par    0.039s   0.092s     0.0062s    0.0144s

  TASKS: 4 (1 bound, 3 peak workers (3 total), using -N1)

  SPARKS: 0 (0 converted, 0 overflowed, 0 dud, 0 GC'd, 0 fizzled)

  INIT    time    0.001s  (  0.001s elapsed)
  MUT     time    0.080s  (  0.173s elapsed)
  GC      time    0.100s  (  0.237s elapsed)
  EXIT    time    0.000s  (  0.000s elapsed)
  Total   time    0.181s  (  0.411s elapsed)

  Alloc rate    4,579,700,132 bytes per MUT second

  Productivity  44.1% of total user, 42.0% of total elapsed

