'./gcwork' +RTS '-N1' '-A16m' '-l-agu' '-ollargeA.eventlog' '-slargeA.s' 
     366,022,464 bytes allocated in the heap
      98,372,408 bytes copied during GC
       6,505,600 bytes maximum residency (6 sample(s))
          52,096 bytes maximum slop
              35 MiB total memory in use (0 MiB lost due to fragmentation)

                                     Tot time (elapsed)  Avg pause  Max pause
  Gen  0        16 colls,     0 par    0.063s   0.148s     0.0093s    0.0233s
  Gen  1         6 colls,     0 par    0.030s   0.062s     0.0104s    0.0172s

  TASKS: 4 (1 bound, 3 peak workers (3 total), using -N1)

  SPARKS: 0 (0 converted, 0 overflowed, 0 dud, 0 GC'd, 0 fizzled)

  INIT    time    0.001s  (  0.000s elapsed)
  MUT     time    0.102s  (  0.236s elapsed)
  GC      time    0.093s  (  0.210s elapsed)
  EXIT    time    0.000s  (  0.000s elapsed)
  Total   time    0.196s  (  0.448s elapsed)

  Alloc rate    3,589,792,269 bytes per MUT second

  Productivity  52.0% of total user, 52.8% of total elapsed

