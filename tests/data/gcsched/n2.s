'./gcwork' +RTS '-N2' '-l' '-oln2.eventlog' '-sn2.s' 
     366,305,824 bytes allocated in the heap
     188,247,544 bytes copied during GC
       6,514,592 bytes maximum residency (16 sample(s))
          59,680 bytes maximum slop
              30 MiB total memory in use (0 MiB lost due to fragmentation)

                                     Tot time (elapsed)  Avg pause  Max pause
  Gen  0        64 colls,    64 par    0.069s   0.097s     0.0015s    0.0076s
  Gen  1        16 colls,    15 par    0.043s   0.059s     0.0037s    0.0105s

  Parallel GC work balance: 60.65% (serial 0%, perfect 100%)

  TASKS: 6 (1 bound, 5 peak workers (5 total), using -N2)

  SPARKS: 0 (0 converted, 0 overflowed, 0 dud, 0 GC'd, 0 fizzled)

  INIT    time    0.001s  (  0.001s elapsed)
  MUT     time    0.092s  (  0.142s elapsed)
  GC      time    0.111s  (  0.156s elapsed)
  EXIT    time    0.000s  (  0.002s elapsed)
  Total   time    0.205s  (  0.301s elapsed)

  Alloc rate    3,965,227,703 bytes per MUT second

  Productivity  45.1% of total user, 47.2% of total elapsed

