'./gcwork' +RTS '-N2' '-l-agu' '-oln2.eventlog' '-sn2.s' 
     366,305,072 bytes allocated in the heap
     186,203,376 bytes copied during GC
       6,515,088 bytes maximum residency (16 sample(s))
          58,992 bytes maximum slop
              30 MiB total memory in use (0 MiB lost due to fragmentation)

                                     Tot time (elapsed)  Avg pause  Max pause
  Gen  0        60 colls,    60 par    0.064s   0.093s     0.0016s    0.0095s
  Gen  1        16 colls,    15 par    0.040s   0.068s     0.0042s    0.0219s

  Parallel GC work balance: 67.95% (serial 0%, perfect 100%)

  TASKS: 6 (1 bound, 5 peak workers (5 total), using -N2)

  SPARKS: 0 (0 converted, 0 overflowed, 0 dud, 0 GC'd, 0 fizzled)

  INIT    time    0.001s  (  0.001s elapsed)
  MUT     time    0.085s  (  0.115s elapsed)
  GC      time    0.104s  (  0.161s elapsed)
  EXIT    time    0.000s  (  0.000s elapsed)
  Total   time    0.190s  (  0.277s elapsed)

  Alloc rate    4,306,577,567 bytes per MUT second

  Productivity  44.8% of total user, 41.6% of total elapsed

