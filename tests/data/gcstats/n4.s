'./gcwork' +RTS '-N4' '-l-agu' '-oln4.eventlog' '-sn4.s' 
     366,330,152 bytes allocated in the heap
     181,875,608 bytes copied during GC
       6,532,960 bytes maximum residency (15 sample(s))
          78,480 bytes maximum slop
              39 MiB total memory in use (0 MiB lost due to fragmentation)

                                     Tot time (elapsed)  Avg pause  Max pause
  Gen  0        58 colls,    58 par    0.111s   0.297s     0.0051s    0.0182s
  Gen  1        15 colls,    14 par    0.056s   0.218s     0.0145s    0.0423s

  Parallel GC work balance: 55.54% (serial 0%, perfect 100%)

  TASKS: 10 (1 bound, 9 peak workers (9 total), using -N4)

  SPARKS: 0 (0 converted, 0 overflowed, 0 dud, 0 GC'd, 0 fizzled)

  INIT    time    0.001s  (  0.001s elapsed)
  MUT     time    0.119s  (  0.574s elapsed)
  GC      time    0.168s  (  0.515s elapsed)
  EXIT    time    0.000s  (  0.001s elapsed)
  Total   time    0.288s  (  1.091s elapsed)

  Alloc rate    3,083,341,197 bytes per MUT second

  Productivity  41.2% of total user, 52.6% of total elapsed

