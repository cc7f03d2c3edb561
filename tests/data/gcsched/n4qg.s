'./gcwork' +RTS '-N4' '-qg' '-l' '-oln4qg.eventlog' '-sn4qg.s' 
     366,330,152 bytes allocated in the heap
     185,900,456 bytes copied during GC
       6,533,408 bytes maximum residency (15 sample(s))
          77,536 bytes maximum slop
              40 MiB total memory in use (0 MiB lost due to fragmentation)

                                     Tot time (elapsed)  Avg pause  Max pause
  Gen  0        59 colls,     0 par    0.028s   0.164s     0.0028s    0.0436s
  Gen  1        15 colls,     0 par    0.010s   0.088s     0.0059s    0.0348s

  TASKS: 10 (1 bound, 9 peak workers (9 total), using -N4)

  SPARKS: 0 (0 converted, 0 overflowed, 0 dud, 0 GC'd, 0 fizzled)

  INIT    time    0.001s  (  0.004s elapsed)
  MUT     time    0.182s  (  0.270s elapsed)
  GC      time    0.038s  (  0.252s elapsed)
  EXIT    time    0.001s  (  0.001s elapsed)
  Total   time    0.222s  (  0.526s elapsed)

  Alloc rate    2,012,827,850 bytes per MUT second

  Productivity  81.9% of total user, 51.3% of total elapsed

