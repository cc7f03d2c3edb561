'./gcwork' +RTS '-N2' '-A64k' '-l-agu' '-olsmallA.eventlog' '-ssmallA.s' 
     366,305,728 bytes allocated in the heap
     231,838,752 bytes copied during GC
       6,515,104 bytes maximum residency (20 sample(s))
          63,072 bytes maximum slop
              22 MiB total memory in use (0 MiB lost due to fragmentation)

                                     Tot time (elapsed)  Avg pause  Max pause
  Gen  0      5497 colls,  5497 par    0.096s   0.096s     0.0000s    0.0012s
  Gen  1        20 colls,    19 par    0.047s   0.050s     0.0025s    0.0068s

  Parallel GC work balance: 52.40% (serial 0%, perfect 100%)

  TASKS: 6 (1 bound, 5 peak workers (5 total), using -N2)

  SPARKS: 0 (0 converted, 0 overflowed, 0 dud, 0 GC'd, 0 fizzled)

  INIT    time    0.001s  (  0.005s elapsed)
  MUT     time    0.157s  (  0.162s elapsed)
  GC      time    0.142s  (  0.146s elapsed)
  EXIT    time    0.001s  (  0.001s elapsed)
  Total   time    0.302s  (  0.314s elapsed)

  Alloc rate    2,329,924,740 bytes per MUT second

  Productivity  52.1% of total user, 51.6% of total elapsed

