'./gcwork' +RTS '-N2' '--nonmoving-gc' '-l-agu' '-olnonmoving.eventlog' '-snonmoving.s' 
     366,305,800 bytes allocated in the heap
     147,679,608 bytes copied during GC
      14,920,072 bytes maximum residency (8 sample(s))
      25,796,480 bytes maximum slop
              58 MiB total memory in use (1 MiB lost due to fragmentation)

                                     Tot time (elapsed)  Avg pause  Max pause
  Gen  0        67 colls,    67 par    0.105s   0.147s     0.0022s    0.0070s
  Gen  1         8 colls,     7 par    0.014s   0.038s     0.0047s    0.0204s
  Gen  1         8 syncs,                       0.020s     0.0025s    0.0063s
  Gen  1      concurrent,              0.032s   0.162s     0.0202s    0.0536s

  Parallel GC work balance: 43.69% (serial 0%, perfect 100%)

  TASKS: 7 (2 bound, 5 peak workers (5 total), using -N2)

  SPARKS: 0 (0 converted, 0 overflowed, 0 dud, 0 GC'd, 0 fizzled)

  INIT    time    0.001s  (  0.001s elapsed)
  MUT     time    0.082s  (  0.116s elapsed)
  GC      time    0.119s  (  0.185s elapsed)
  CONC GC time    0.032s  (  0.162s elapsed)
  EXIT    time    0.000s  (  0.000s elapsed)
  Total   time    0.234s  (  0.302s elapsed)

  Alloc rate    4,469,143,626 bytes per MUT second

  Productivity  48.7% of total user, 38.4% of total elapsed

