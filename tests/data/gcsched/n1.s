'./gcwork' +RTS '-N1' '-l' '-oln1.eventlog' '-sn1.s' 
     366,293,576 bytes allocated in the heap
     188,886,328 bytes copied during GC
       6,505,600 bytes maximum residency (15 sample(s))
          48,496 bytes maximum slop
              24 MiB total memory in use (0 MiB lost due to fragmentation)

                                     Tot time (elapsed)  Avg pause  Max pause
  Gen  0        73 colls,     0 par    0.063s   0.100s     0.0014s    0.0056s
  Gen  1        15 colls,     0 par    0.041s   0.126s     0.0084s    0.0498s

  TASKS: 4 (1 bound, 3 peak workers (3 total), using -N1)

  SPARKS: 0 (0 converted, 0 overflowed, 0 dud, 0 GC'd, 0 fizzled)

  INIT    time    0.000s  (  0.000s elapsed)
  MUT     time    0.082s  (  0.225s elapsed)
  GC      time    0.105s  (  0.226s elapsed)
  EXIT    time    0.000s  (  0.000s elapsed)
  Total   time    0.187s  (  0.452s elapsed)

  Alloc rate    4,452,221,543 bytes per MUT second

  Productivity  43.9% of total user, 49.8% of total elapsed

