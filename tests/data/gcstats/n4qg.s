'./gcwork' +RTS '-N4' '-qg' '-l-agu' '-oln4qg.eventlog' '-sn4qg.s' 
     366,330,152 bytes allocated in the heap
     190,096,616 bytes copied during GC
       6,533,248 bytes maximum residency (15 sample(s))
          73,904 bytes maximum slop
              39 MiB total memory in use (0 MiB lost due to fragmentation)

                                     Tot time (elapsed)  Avg pause  Max pause
  Gen  0        64 colls,     0 par    0.022s   0.217s     0.0034s    0.0392s
  Gen  1        15 colls,     0 par    0.023s   0.131s     0.0087s    0.0664s

  TASKS: 10 (1 bound, 9 peak workers (9 total), using -N4)

  SPARKS: 0 (0 converted, 0 overflowed, 0 dud, 0 GC'd, 0 fizzled)

  INIT    time    0.002s  (  0.009s elapsed)
  MUT     time    0.181s  (  0.321s elapsed)
  GC      time    0.045s  (  0.347s elapsed)
  EXIT    time    0.001s  (  0.003s elapsed)
  Total   time    0.228s  (  0.680s elapsed)

  Alloc rate    2,019,234,271 bytes per MUT second

  Productivity  79.5% of total user, 47.1% of total elapsed

